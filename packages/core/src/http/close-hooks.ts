/**
 * Work a server finishes when it closes, after its last request and before its engine client
 * closes: registered by the parts of an app that hold something to hand back (the quota places a
 * process reserved, a background probe's timer). Hooks run in the reverse order of registration.
 */
export class CloseHooks {
  private readonly hooks: (() => Promise<void> | void)[] = [];

  add(hook: () => Promise<void> | void): void {
    this.hooks.push(hook);
  }

  /** Runs every hook once, each even if an earlier one failed; throws the failures together. */
  async run(): Promise<void> {
    const failures: unknown[] = [];
    for (const hook of this.hooks.splice(0).reverse()) {
      try {
        await hook();
      } catch (error) {
        failures.push(error);
      }
    }
    if (failures.length === 1) throw failures[0];
    if (failures.length > 1) throw new AggregateError(failures, 'closing hooks failed');
  }
}
