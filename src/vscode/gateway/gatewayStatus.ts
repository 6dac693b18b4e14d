/** Whether the extension's gateway runs and where: the line the status bar's tooltip adds. */

export class GatewayStatus {
  private url: string | undefined;
  private problem: string | undefined;
  private readonly listeners = new Set<() => void>();

  /** The gateway listens at `url`, or stopped (`undefined`), or could not start (`problem`). */
  set(url: string | undefined, problem?: string): void {
    this.url = url;
    this.problem = problem;
    for (const listener of this.listeners) listener();
  }

  /** The tooltip's gateway line, or '' when the gateway is off. */
  tooltipLine(): string {
    if (this.url) return `\nGateway for other agents: ${this.url} (OpenAI clients: ${this.url}/v1).`;
    if (this.problem) return `\nGateway not running: ${this.problem}`;
    return '';
  }

  onDidChange(listener: () => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }
}

/** The extension's one gateway status (the status bar reads it). */
export const gatewayStatus = new GatewayStatus();
