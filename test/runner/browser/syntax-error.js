console.log('never');
let x = ;
// SPDX-License-Identifier: MIT
