// The young generation of the threads that do background work. An analysis or a collection makes
// short-lived arrays by the hundred megabytes (a 10,000-VM analysis: 16 hourly series per VM and
// the engine's own); with V8's default semi-space of 16 MiB the batch in hand outlived scavenges,
// was promoted and then marked and compacted. 64 MiB semi-spaces (a young generation of three of
// them) took the analysis's own CPU from 2.8–3.0 s to 2.35 s per 10,000 VMs (`bench/recommendations`),
// for at most 192 MiB more of the thread's memory. The job thread is given it as a resource limit;
// a ROLE=worker process, whose main thread does the work, by the README's command line.
export const backgroundSemiSpaceMb = 64;
export const backgroundYoungGenerationMb = backgroundSemiSpaceMb * 3;
export const backgroundHeapFlags = [`--max-semi-space-size=${backgroundSemiSpaceMb}`];
