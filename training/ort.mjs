// The training tools' one way to onnxruntime-node. As in the engine (engine/src/embed/onnxRuntime.ts),
// the runtime's telemetry is turned off before its native library loads: it would otherwise look up
// mobile.events.data.microsoft.com and write a device id under ~/.cache/Microsoft.
import { createRequire } from 'node:module';

process.env.ORT_DISABLE_TELEMETRY = '1';
const require = createRequire(import.meta.url);
export default require('onnxruntime-node');
