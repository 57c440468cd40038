import { config } from 'zod';

// A CLI process parses each schema a few times: compiling zod's fast paths (new Function per
// object schema) costs more than it saves. zod reads the setting when a schema is built, so this
// module is imported before any other: main.ts imports it first.
config({ jitless: true });
