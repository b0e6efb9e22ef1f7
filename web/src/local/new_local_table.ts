// Opening a table against the computer or for two at one device: the request goes out as
// table:new_local, and the answer is the new table's first table:state (its id is the new route).
import type { ErrorPayload, TableNewLocalPayload, TableStatePayload } from "../protocol";
import { gameSocket } from "../table/game_socket";

/** Resolves with the new table's id; rejects with the server's message. */
export async function openLocalTable(request: TableNewLocalPayload): Promise<number> {
  const socket = await gameSocket();
  return new Promise<number>((resolve, reject) => {
    const onState = (payload: TableStatePayload) => {
      if (payload.mode !== request.mode || payload.game !== request.game || payload.moves.length > 1) return;
      cleanup();
      resolve(payload.game_id);
    };
    const onError = (error: ErrorPayload) => {
      if (error.event !== "table:new_local") return;
      cleanup();
      reject(new Error(error.message));
    };
    const cleanup = () => {
      socket.off("table:state", onState);
      socket.off("error", onError);
    };
    socket.on("table:state", onState);
    socket.on("error", onError);
    socket.emit("table:new_local", request);
  });
}
