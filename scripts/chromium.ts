/**
 * How every browser here is launched: Debian's Chromium (`apt-get install chromium`; never a
 * downloaded browser), with the flags for a container without a GPU or a network. The Playwright
 * suite (playwright.config.ts) and the browser benches (scripts/bench/bundle.ts, editor.ts) use it.
 */
export const CHROMIUM_LAUNCH = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};
