// oracle: browser
// An async function resumed across tasks: each await of a timer promise
// resumes in the microtask checkpoint of that timer's task, before the next
// task (HTML 8.1.7.3). A message posted meanwhile interleaves by queue order.
const ch = new MessageChannel();
ch.port1.onmessage = (e) => console.log('message', e.data);
const sleep0 = (label) => new Promise((r) => setTimeout(() => { console.log('timer', label); r(); }, 0));
async function run() {
  console.log('start');
  await sleep0('A');
  console.log('resumed after A');
  ch.port2.postMessage('posted after A');
  await sleep0('B');
  console.log('resumed after B');
  await null;
  console.log('after await null');
  ch.port1.close();
  return 'done';
}
run().then((v) => { console.log('run', v); setTimeout(() => console.log('END'), 0); });
// SPDX-License-Identifier: MIT
