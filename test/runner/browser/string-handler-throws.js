console.log('line one of the file');
setTimeout("throw new Error('from a string')", 1);
// SPDX-License-Identifier: MIT
