// Tests see the server as it runs: every module's resource kinds registered (src/modules.ts
// registers them when it is first imported, as the server and the CLI do at start).
import '../../src/modules.js';
