package main

import "runtime"

// runtimeCaller finds this source file, next to which engine.mjs lives.
func runtimeCaller() (uintptr, string, int, bool) { return runtime.Caller(0) }
