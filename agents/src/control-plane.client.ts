import {
  type AgentMetricsBatch, AgentEndpoints, LeaseTaskResponse, RegisterAgentResponse, type AgentStatusReport, type AgentTask, type CompleteTaskRequest,
  type RegisterAgentRequest, type TaskProgressRequest,
} from '@strata/api';

export class ControlPlaneError extends Error {
  constructor(readonly status: number, readonly code: string | undefined, message: string) {
    super(message);
  }
}

/** Typed client for the agent protocol (see @strata/api agent.ts). */
export class ControlPlaneClient {
  constructor(private readonly baseUrl: string, private credential?: string) {}

  setCredential(credential: string): void {
    this.credential = credential;
  }

  private async call(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<unknown> {
    const res = await fetch(this.baseUrl + path, {
      method,
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(this.credential ? { authorization: `Bearer ${this.credential}` } : {}),
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
      signal,
    });
    if (res.status === 204) return null;
    const text = await res.text();
    const json = text ? JSON.parse(text) : null;
    if (!res.ok) throw new ControlPlaneError(res.status, json?.code, `${method} ${path}: ${res.status} ${json?.detail ?? json?.title ?? text}`);
    return json;
  }

  async register(req: RegisterAgentRequest): Promise<RegisterAgentResponse> {
    return RegisterAgentResponse.parse(await this.call('POST', '/v1/agent/register', req));
  }

  async reportStatus(report: AgentStatusReport): Promise<void> {
    await this.call('POST', '/v1/agent/status', report, AbortSignal.timeout(5000));
  }

  async pushMetrics(batch: AgentMetricsBatch): Promise<void> {
    await this.call('POST', '/v1/agent/metrics', batch, AbortSignal.timeout(5000));
  }

  async endpoints(): Promise<AgentEndpoints> {
    return AgentEndpoints.parse(await this.call('GET', '/v1/agent/endpoints', undefined, AbortSignal.timeout(3000)));
  }

  async leaseTask(waitMs: number, signal: AbortSignal): Promise<AgentTask | null> {
    return LeaseTaskResponse.parse(await this.call('GET', `/v1/agent/tasks?waitMs=${waitMs}`, undefined, signal)).task;
  }

  /** Extends the lease; `stop` asks the task to end early at a safe point. */
  async heartbeat(taskId: string): Promise<{ stop: boolean }> {
    const r = (await this.call('POST', `/v1/agent/tasks/${taskId}/heartbeat`, undefined, AbortSignal.timeout(5000))) as { stop?: boolean } | null;
    return { stop: r?.stop === true };
  }

  async progress(taskId: string, progress: TaskProgressRequest): Promise<void> {
    await this.call('POST', `/v1/agent/tasks/${taskId}/progress`, progress, AbortSignal.timeout(5000));
  }

  async complete(taskId: string, outcome: CompleteTaskRequest): Promise<void> {
    await this.call('POST', `/v1/agent/tasks/${taskId}/complete`, outcome, AbortSignal.timeout(10_000));
  }
}
