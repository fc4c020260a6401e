// Runs after tsc (npm run build). The openTRANS schemas the inbox checks against travel with dist,
// and the CLI that package.json's `bin` names is made executable: tsc writes it without the x bit,
// and `npm ci` on a fresh clone links the bin before dist exists, so it cannot set the bit then —
// `npx homecare-sync` would fail with "Permission denied".
import { chmodSync, cpSync } from 'node:fs';

cpSync('src/erp/formats/openTrans/xsd', 'dist/erp/formats/openTrans/xsd', { recursive: true });
chmodSync('dist/cli/main.js', 0o755);
