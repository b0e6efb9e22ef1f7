// The header's Taler: any page that learns the balance changed (a game's pot, a stake back)
// announces it, and the header shows it at once instead of after a reload.
const EVENT = "spielcenter:balance";

export function announceBalance(balance: number): void {
  window.dispatchEvent(new CustomEvent<number>(EVENT, { detail: balance }));
}

export function onBalance(listener: (balance: number) => void): void {
  window.addEventListener(EVENT, (event) => listener((event as CustomEvent<number>).detail));
}
