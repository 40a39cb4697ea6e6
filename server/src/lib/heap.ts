// The heap of Cloudtrim's threads. The job thread of ROLE=all is given it as resource limits; a
// process's main thread (the API's, or a ROLE=worker's, which does the background work) by its
// command line.
//
// The young generation. An analysis or a collection makes short-lived arrays by the hundred
// megabytes (a 10,000-VM analysis: 16 hourly series per VM and the engine's own); with V8's default
// semi-space of 16 MiB the batch in hand outlived scavenges, was promoted and then marked and
// compacted. 64 MiB semi-spaces (a young generation of three of them) took the analysis's own CPU
// from 2.8–3.0 s to 2.35 s per 10,000 VMs (`bench/recommendations`), for at most 192 MiB more of
// the thread's memory.
export const backgroundSemiSpaceMb = 64;
export const backgroundYoungGenerationMb = backgroundSemiSpaceMb * 3;

// The old generation's ceiling, for every thread of every role: the job thread has it as a resource
// limit, a process's main thread by its command line (`npm start`'s script and the README's
// commands: `backgroundHeapFlags`, `apiHeapFlags`). What the work keeps alive is small: after a
// full collection the job thread held 75–90 MiB through a 10,000-VM tenant's collection, 105–110
// MiB through a 20,000-VM one, and 57–61 MiB through a 10,000-VM analysis (which works 200 VMs at a
// time); the API's answers are kept within bounds (`lib/versioned-answers.ts`). But V8 lets the old
// generation grow by a factor it scales with this ceiling before it collects again: 4× the live
// set under its default ceiling (4 GiB on a host with 16 GiB or more), about 2× under 1 GiB. The
// default took a 10,000-VM collection's process to 1.10–1.17 GiB; under 1 GiB it stays at
// 0.80–0.82 GiB and the collection takes as long (`bench/collect` prints both). The ceiling is ten
// times a 10,000-VM collection's live set, enough for a tenant of about 100,000 VMs in one process
// by the figures above; past it the thread stops out of memory, the process exits and its
// supervisor restarts it (ARCHITECTURE.md, Sizing guide, says how to give a larger tenant more).
export const oldGenerationCeilingMb = 1024;

export const backgroundHeapFlags = [
  `--max-semi-space-size=${backgroundSemiSpaceMb}`,
  `--max-old-space-size=${oldGenerationCeilingMb}`,
];
export const apiHeapFlags = [`--max-old-space-size=${oldGenerationCeilingMb}`];
