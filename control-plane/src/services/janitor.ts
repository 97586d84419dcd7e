import type pg from 'pg';
import type { Logger } from 'pino';

/** Removes what is only history: finished tasks after a day, expired sessions and join tokens. */
export class Janitor {
  private timer?: NodeJS.Timeout;

  constructor(private readonly d: { pool: pg.Pool; log: Logger; everyMs?: number }) {}

  start(): void {
    this.timer = setInterval(() => void this.sweep(), this.d.everyMs ?? 3_600_000);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  async sweep(): Promise<{ tasks: number; sessions: number; joinTokens: number }> {
    try {
      const tasks = await this.d.pool.query(`DELETE FROM tasks WHERE state IN ('succeeded', 'failed') AND updated_at < now() - interval '1 day'`);
      const sessions = await this.d.pool.query('DELETE FROM sessions WHERE expires_at < now()');
      const joinTokens = await this.d.pool.query(`DELETE FROM join_tokens WHERE expires_at < now() - interval '1 day'`);
      return { tasks: tasks.rowCount ?? 0, sessions: sessions.rowCount ?? 0, joinTokens: joinTokens.rowCount ?? 0 };
    } catch (err) {
      this.d.log.warn({ err }, 'janitor sweep failed');
      return { tasks: 0, sessions: 0, joinTokens: 0 };
    }
  }
}
