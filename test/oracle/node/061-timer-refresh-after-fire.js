// oracle: node10 node11 node
// refresh() from a timer's own callback arms it again, so it fires twice;
// refresh() after clearInterval does not bring the interval back.
let n = 0;
const t = setTimeout(() => {
  n += 1;
  console.log('timer fired', n);
  if (n === 1) t.refresh();
  else startInterval();
}, 5);
function startInterval() {
  let runs = 0;
  const iv = setInterval(() => {
    runs += 1;
    console.log('interval run', runs, '- clear, then refresh');
    clearInterval(iv);
    iv.refresh();
  }, 5);
  setTimeout(() => console.log('50 ms later: the interval stayed cleared'), 50);
}
// SPDX-License-Identifier: MIT
