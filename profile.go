package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
)

// startProfiles starts the profiles developers ask for through the
// environment, for measuring strata on real workloads (see
// website/docs/environment.md): STRATA_CPUPROFILE names a file for a CPU
// profile of the whole command, STRATA_MEMPROFILE one for a heap profile
// taken as the command ends. It returns the function that finishes them.
func startProfiles() (stop func()) {
	cpu, mem := os.Getenv("STRATA_CPUPROFILE"), os.Getenv("STRATA_MEMPROFILE")
	var cpuFile *os.File
	if cpu != "" {
		f, err := os.Create(cpu)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "strata: STRATA_CPUPROFILE: %v\n", err)
		} else {
			cpuFile = f
		}
	}
	return func() {
		if cpuFile != nil {
			pprof.StopCPUProfile()
			cpuFile.Close()
		}
		if mem == "" {
			return
		}
		f, err := os.Create(mem)
		if err == nil {
			runtime.GC()
			err = pprof.Lookup("allocs").WriteTo(f, 0)
			f.Close()
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "strata: STRATA_MEMPROFILE: %v\n", err)
		}
	}
}
