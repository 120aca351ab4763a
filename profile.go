package main

import (
	"bytes"
	"fmt"
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"time"
)

// startProfiles starts the profiles developers ask for through the
// environment, for measuring strata on real workloads (see
// website/docs/environment.md): STRATA_CPUPROFILE names a file for a CPU
// profile of the whole command, STRATA_MEMPROFILE one for a heap profile
// taken as the command ends, and STRATA_PEAKPROFILE one for a heap profile
// taken when the live heap was largest, which is what the peak resident
// set follows. It returns the function that finishes them.
func startProfiles() (stop func()) {
	cpu, mem, peak := os.Getenv("STRATA_CPUPROFILE"), os.Getenv("STRATA_MEMPROFILE"), os.Getenv("STRATA_PEAKPROFILE")
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
	var stopPeak func()
	if peak != "" {
		stopPeak = watchPeakHeap(peak)
	}
	return func() {
		if cpuFile != nil {
			pprof.StopCPUProfile()
			cpuFile.Close()
		}
		if stopPeak != nil {
			stopPeak()
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

// watchPeakHeap samples the live heap (as the last garbage collection
// measured it) every few milliseconds and keeps a heap profile of the
// largest seen, taken again whenever the live heap grew by a twentieth;
// the returned function writes the kept profile to path.
func watchPeakHeap(path string) (stop func()) {
	done, finished := make(chan struct{}), make(chan struct{})
	var kept bytes.Buffer
	go func() {
		defer close(finished)
		sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		var largest uint64
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
			}
			metrics.Read(sample)
			if sample[0].Value.Kind() != metrics.KindUint64 {
				return
			}
			if live := sample[0].Value.Uint64(); live > largest+largest/20 {
				largest = live
				kept.Reset()
				_ = pprof.Lookup("heap").WriteTo(&kept, 0)
			}
		}
	}()
	return func() {
		close(done)
		<-finished
		if err := os.WriteFile(path, kept.Bytes(), 0o644); err != nil {
			fmt.Fprintf(os.Stderr, "strata: STRATA_PEAKPROFILE: %v\n", err)
		}
	}
}
