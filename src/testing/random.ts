/** A source of numbers in [0, 1), as `Math.random`. */
export type Random = () => number;

/** mulberry32: a seeded generator of numbers in [0, 1), so that a failing run can be replayed from its seed. */
export function seededRandom(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
