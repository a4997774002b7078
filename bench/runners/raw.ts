// The floor: fetch + eventsource-parser + JSON.parse, reading response.body with a reader
// (the request and read loop are lib/raw-stream.ts, the parsing loop lib/raw-consumer.ts).
import { rawStreamOnce } from '../lib/raw-stream.ts';
import { runBenchmark } from '../lib/runner-harness.ts';

await runBenchmark('raw', rawStreamOnce);
