// A child process of the Redis rate limiter test: takes `attempts` tokens and prints how many it got.
// Run: node --conditions=rxagent-source test/stores/rate-limit-worker.ts '<json>'
import { redisRateLimiter } from '../../src/stores/redis/index.ts';

const { url, prefix, key, attempts } = JSON.parse(process.argv[2] ?? '{}') as {
  url: string;
  prefix: string;
  key: string;
  attempts: number;
};
const limiter = redisRateLimiter({ url, prefix, limit: 30, windowMs: 3_600_000 });
const decisions = await Promise.all(Array.from({ length: attempts }, () => limiter.consume(key)));
await limiter.close();
process.stdout.write(JSON.stringify({ allowed: decisions.filter((decision) => decision.allowed).length }));
