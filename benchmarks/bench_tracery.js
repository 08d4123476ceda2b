// Expansions per second of the npm package tracery-grammar on one grammar, for
// bench_tracery.py: node bench_tracery.js GRAMMAR.json ORIGIN SECONDS
// prints {"version": ..., "rate": ...}. The package is found through NODE_PATH.
"use strict";
const fs = require("fs");
const tracery = require("tracery-grammar");
const version = require("tracery-grammar/package.json").version;

const [grammarPath, origin, seconds] = process.argv.slice(2);
const grammar = tracery.createGrammar(JSON.parse(fs.readFileSync(grammarPath, "utf8")));
grammar.addModifiers(tracery.baseEngModifiers);

function rate(limit) {
  let done = 0;
  const began = process.hrtime.bigint();
  const end = began + BigInt(Math.round(limit * 1e9));
  let now = began;
  while (now < end) {
    for (let i = 0; i < 100; i++) grammar.flatten(origin);
    done += 100;
    now = process.hrtime.bigint();
  }
  return done / (Number(now - began) / 1e9);
}

rate(Math.min(0.5, Number(seconds)));  // warm up the JIT
console.log(JSON.stringify({ version, rate: rate(Number(seconds)) }));
