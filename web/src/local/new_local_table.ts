// Opening a table against the computer or for two at one device: the request goes out as
// table:new_local on a socket of its own, and the answer is the new table's first table:state
// (its id is the new route, whose page opens the table's own socket).
import type { ErrorPayload, TableNewLocalPayload, TableStatePayload } from "../protocol";
import { socketWithoutTable } from "../game_socket";

/** Resolves with the new table's id; rejects with the server's message. */
export async function openLocalTable(request: TableNewLocalPayload): Promise<number> {
  const socket = await socketWithoutTable();
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
    // Refused at the connection (a session that ended): no answer will come.
    const onRefused = (error: Error & { data?: { message?: string } }) => {
      if (error.data === undefined) return; // the line: Socket.IO tries again by itself
      cleanup();
      reject(new Error(error.data.message ?? error.message));
    };
    const cleanup = () => {
      socket.disconnect();
    };
    socket.on("table:state", onState);
    socket.on("error", onError);
    socket.on("connect_error", onRefused);
    socket.emit("table:new_local", request);
  });
}
