// --trace: an idle period and its idle callback.
requestIdleCallback(() => console.log('idle'));
// SPDX-License-Identifier: MIT
