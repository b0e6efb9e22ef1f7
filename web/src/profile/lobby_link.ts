// What the pages beside the Wartesaal need of it (a profile challenges directly): the
// Wartesaal registers itself here while it is open, so pages need no reference to it.
import type { ChallengeCreatePayload, Player } from "../protocol";

export interface LobbyLink {
  /** Open a challenge to ``userId`` in ``game`` (the challenge panel appears for both). */
  challenge(userId: number, game: ChallengeCreatePayload["game"]): void;
  /** The player as the Wartesaal list shows them now, or undefined when not there. */
  player(userId: number): Player | undefined;
}

let current: LobbyLink | null = null;

export function connectLobby(link: LobbyLink | null): void {
  current = link;
}

export function lobbyLink(): LobbyLink | null {
  return current;
}
