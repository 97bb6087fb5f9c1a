// Two expired timers of one list, an immediate, a nextTick and promises:
// the trace shows which phase and which native callback printed each line.
const start = Date.now();
setTimeout(() => {
  console.log('timer1');
  Promise.resolve().then(() => console.log('promise1'));
}, 1);
setTimeout(() => console.log('timer2'), 1);
setImmediate(() => console.log('immediate'));
process.nextTick(() => console.log('tick'));
console.log('main');
while (Date.now() - start < 5) {}
