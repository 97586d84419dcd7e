/**
 * Reads a server-sent event stream (`event:` / `data:` blocks) from a fetch
 * response and hands each event to `onEvent`; stops when the stream ends or
 * `onEvent` returns true (the rest of the stream is cancelled).
 */
export async function readSse(res: Response, onEvent: (event: string, data: string | undefined) => boolean | void): Promise<void> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buf = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buf += decoder.decode(value, { stream: true });
    let i;
    while ((i = buf.indexOf('\n\n')) >= 0) {
      const block = buf.slice(0, i);
      buf = buf.slice(i + 2);
      const lines = block.split('\n');
      const event = lines.find((l) => l.startsWith('event: '))?.slice(7) ?? 'message';
      const data = lines.find((l) => l.startsWith('data: '))?.slice(6);
      if (onEvent(event, data) === true) return void (await reader.cancel());
    }
  }
}
