// Command bench measures strata against Terraform and OpenTofu (-terraform
// and -tofu; by default $STRATA_TERRAFORM and $STRATA_TOFU, else the
// commands on PATH) on generated configurations: an apply from an empty
// state, then a no-op plan, each with its wall time, CPU time and peak
// memory. -runs N interleaves N rounds (strata, terraform, tofu, strata,
// ...) and reports medians and the median of each round's ratios.
// Run it with `make bench`; BENCH_N and BENCH_WORKLOADS choose the sizes
// and workloads.
//
// Workloads:
//
//	data  terraform_data resources (built into every tool: no plugin)
//	null  null_resource through the upstream hashicorp/null plugin, built
//	      from its repository (see -repos); without the repository, the
//	      repository's own protocol 5 test provider stands in
//
// Resources refer to each other in chains of -chain resources, so the
// graph has depth without being one long line (-chain 0: one chain).
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func main() {
	sizes := flag.String("n", "2000", "comma-separated numbers of resources")
	workloads := flag.String("workloads", "data", "comma-separated workloads: data, null")
	chain := flag.Int("chain", 10, "length of each chain of references (0: one chain)")
	strata := flag.String("strata", "bin/strata", "path to the strata binary")
	terraform := flag.String("terraform", peerDefault("STRATA_TERRAFORM", "terraform"), "path to terraform (\"\": none); default $STRATA_TERRAFORM, else terraform on PATH")
	tofu := flag.String("tofu", peerDefault("STRATA_TOFU", "tofu"), "path to OpenTofu's tofu (\"\": none); default $STRATA_TOFU, else tofu on PATH")
	var extra []tool
	flag.Func("extra", "another CLI to measure, as `name=path` (repeatable): another build of strata, to compare before and after", func(v string) error {
		name, path, ok := strings.Cut(v, "=")
		if !ok || name == "" || path == "" {
			return fmt.Errorf("want name=path")
		}
		extra = append(extra, tool{name, path})
		return nil
	})
	runs := flag.Int("runs", 1, "interleaved rounds per size (strata, terraform, tofu, strata, ...); the summary gives medians")
	peerMax := flag.Int("peer-max", 10000, "largest size also run with terraform and tofu (they take minutes beyond)")
	terraformMax := flag.Int("terraform-max", 2000, "largest size also run with terraform, whose apply time grows quadratically (96 s at 2,000; most of an hour at 10,000)")
	pluginMax := flag.Int("plugin-max", 2000, "largest size the plugin workloads (null) run at (0: every size)")
	repos := flag.String("repos", "/work/.mirror", "directory holding the provider repositories (null workload)")
	cache := flag.String("cache", "bin/compat-cache", "directory for provider builds, kept between runs")
	flag.Parse()

	bin, err := filepath.Abs(*strata)
	if err != nil {
		fail(err)
	}
	tools := []tool{{"strata", bin}}
	for _, p := range append([]tool{{"terraform", *terraform}, {"tofu", *tofu}}, extra...) {
		if p.path == "" {
			continue
		}
		path, err := exec.LookPath(p.path)
		if err != nil {
			fail(fmt.Errorf("-%s: %v", p.name, err))
		}
		tools = append(tools, tool{p.name, path})
	}
	ns, err := parseSizes(*sizes)
	if err != nil {
		fail(err)
	}
	if *runs < 1 {
		fail(fmt.Errorf("-runs: %d is not a positive number of rounds", *runs))
	}
	if *cache, err = filepath.Abs(*cache); err != nil {
		fail(err)
	}

	header := func() {
		fmt.Printf("%-9s %9s  %-10s %10s %8s %11s %11s %8s %11s\n", "workload", "resources", "tool", "apply", "CPU", "peak MB", "no-op plan", "CPU", "peak MB")
	}
	row := func(w string, n int, name string, r result) {
		fmt.Printf("%-9s %9d  %-10s %10s %8s %11s %11s %8s %11s\n", w, n, name,
			round(r.apply.took), round(r.apply.cpu), r.apply.memory(), round(r.plan.took), round(r.plan.cpu), r.plan.memory())
	}
	header()
	var summary []string
	var table []tableRow
	for _, name := range strings.Split(*workloads, ",") {
		w, err := newWorkload(strings.TrimSpace(name), *repos, *cache)
		if err != nil {
			fail(err)
		}
		for _, n := range sizesFor(w.name, ns, *pluginMax) {
			var peers []tool
			for _, t := range tools {
				if skip := skipAt(t, n, *peerMax, *terraformMax); skip != "" {
					fmt.Printf("%-9s %9d  %-10s %10s\n", w.name, n, t.name, "(skipped: "+skip+")")
					continue
				}
				peers = append(peers, t)
			}
			// rounds[i][t]: round i's result for peers[t]. The tools of
			// one round run back to back, so their ratios share the
			// machine's load of the moment.
			rounds := make([][]result, *runs)
			for i := range rounds {
				for _, t := range peers {
					r := measure(t, w, n, *chain)
					rounds[i] = append(rounds[i], r)
					label := t.name
					if *runs > 1 {
						label = fmt.Sprintf("%s #%d", t.name, i+1)
					}
					row(w.name, n, label, r)
				}
			}
			summary = append(summary, summarize(w.name, n, peers, rounds)...)
			table = append(table, tableRows(w.name, n, peers, rounds)...)
		}
	}
	if len(tools) == 1 {
		fmt.Println("\nneither terraform, tofu nor -extra given or on PATH; no comparison")
	}
	fmt.Println()
	for _, s := range summary {
		fmt.Println(s)
	}
	fmt.Println()
	fmt.Print(renderTable(tools, table))
	fmt.Println("\nCPU: user and system time of the command and the plugins it waited for; on a shared machine it")
	fmt.Println("varies far less than the wall time. peak MB: the command's own peak resident set; in parentheses,")
	fmt.Println("a provider plugin's when larger. Ratios (peer / strata) are the median of each round's ratio:")
	fmt.Println("the tools of a round run back to back under the same load.")
}

// peerDefault is a peer CLI's default path: the environment variable,
// else the command on PATH, else none.
func peerDefault(env, name string) string {
	if v, ok := os.LookupEnv(env); ok {
		return v
	}
	if path, err := exec.LookPath(name); err == nil {
		return path
	}
	return ""
}

// summarize renders the medians of each tool's rounds and, for each peer,
// the median of its per-round ratios to strata (peers[0]).
func summarize(w string, n int, peers []tool, rounds [][]result) []string {
	var out []string
	pick := func(t int, f func(result) float64) []float64 {
		var v []float64
		for _, r := range rounds {
			v = append(v, f(r[t]))
		}
		return v
	}
	ratio := func(t int, f func(result) float64) float64 {
		var v []float64
		for _, r := range rounds {
			if base := f(r[0]); base > 0 {
				v = append(v, f(r[t])/base)
			}
		}
		return median(v)
	}
	applyWall := func(r result) float64 { return r.apply.took.Seconds() }
	applyCPU := func(r result) float64 { return r.apply.cpu.Seconds() }
	applyMem := func(r result) float64 { return float64(r.apply.ownKB) }
	planWall := func(r result) float64 { return r.plan.took.Seconds() }
	planCPU := func(r result) float64 { return r.plan.cpu.Seconds() }
	planMem := func(r result) float64 { return float64(r.plan.ownKB) }
	for t, p := range peers {
		out = append(out, fmt.Sprintf("%s %d %s (median of %d): apply %.2fs, CPU %.2fs, %d MB; no-op plan %.2fs, CPU %.2fs, %d MB",
			w, n, p.name, len(rounds),
			median(pick(t, applyWall)), median(pick(t, applyCPU)), mb(int64(median(pick(t, applyMem)))),
			median(pick(t, planWall)), median(pick(t, planCPU)), mb(int64(median(pick(t, planMem))))))
	}
	for t, p := range peers[1:] {
		t++
		out = append(out, fmt.Sprintf("  strata vs %s: apply %.1fx faster (CPU %.1fx), %.1fx less memory; no-op plan %.1fx faster (CPU %.1fx), %.1fx less memory",
			p.name, ratio(t, applyWall), ratio(t, applyCPU), ratio(t, applyMem), ratio(t, planWall), ratio(t, planCPU), ratio(t, planMem)))
	}
	return out
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// tool is a CLI under measurement.
type tool struct{ name, path string }

// result is one tool's figures on one configuration.
type result struct{ apply, plan run }

// run is one command's wall time, CPU time and peak resident sets: its
// own, and the largest of it and the plugins it started.
type run struct {
	took   time.Duration
	cpu    time.Duration
	ownKB  int64
	peakKB int64
}

func mb(kb int64) int64 { return (kb + 512) / 1024 }

// memory renders the CLI's own peak, and the plugins' when larger. The
// own peak is sampled, so a peak a few percent above it is the CLI's last
// moments, not a plugin.
func (r run) memory() string {
	if r.peakKB > r.ownKB+r.ownKB/10 {
		return fmt.Sprintf("%d (%d)", mb(r.ownKB), mb(r.peakKB))
	}
	return fmt.Sprint(mb(r.ownKB))
}

// measure runs init, apply and a no-op plan with t in a fresh directory.
func measure(t tool, w workload, n, chain int) result {
	dir, err := os.MkdirTemp("", "strata-bench-")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(dir)
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(w.config(n, chain)), 0o644); err != nil {
		fail(err)
	}
	env := append(os.Environ(), "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1", "TF_CLI_CONFIG_FILE="+w.cliConfig)
	execute(dir, t, env, "init", "-input=false")
	return result{
		apply: execute(dir, t, env, "apply", "-auto-approve", "-input=false", "-no-color"),
		plan:  execute(dir, t, env, "plan", "-input=false", "-no-color", "-detailed-exitcode"),
	}
}

// execute runs one command and fails the benchmark if it does not exit 0
// (a no-op plan with -detailed-exitcode exits 2 when it finds changes).
func execute(dir string, t tool, env []string, args ...string) run {
	cmd := exec.Command(t.path, args...)
	cmd.Dir = dir
	cmd.Env = env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	if err := cmd.Start(); err != nil {
		fail(err)
	}
	done := make(chan struct{})
	own := make(chan int64, 1)
	go func() { own <- watchHighWater(cmd.Process.Pid, done) }()
	err := cmd.Wait()
	took := time.Since(start)
	close(done)
	if err != nil {
		fail(fmt.Errorf("%s %s: %v\n%s", t.name, strings.Join(args, " "), err, tail(out.Bytes())))
	}
	r := run{took: took, ownKB: <-own, cpu: cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.peakKB = ru.Maxrss // kilobytes on Linux; the largest of it and the children it waited for
	}
	if r.ownKB > r.peakKB {
		r.peakKB = r.ownKB
	}
	return r
}

// watchHighWater samples the resident-set high-water mark of process pid
// (VmHWM, which only grows) from /proc until done is closed, and returns
// the last value read: the CLI's own peak, without its plugins. 0 where
// there is no /proc.
func watchHighWater(pid int, done <-chan struct{}) int64 {
	path := fmt.Sprintf("/proc/%d/status", pid)
	var last int64
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		if b, err := os.ReadFile(path); err == nil {
			for _, line := range strings.Split(string(b), "\n") {
				if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmHWM:" {
					if kb, err := strconv.ParseInt(f[1], 10, 64); err == nil && kb > last {
						last = kb
					}
				}
			}
		}
		select {
		case <-done:
			return last
		case <-tick.C:
		}
	}
}

func parseSizes(s string) ([]int, error) {
	var ns []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("-n: %q is not a positive number of resources", f)
		}
		ns = append(ns, n)
	}
	return ns, nil
}

func tail(out []byte) string {
	s := string(out)
	if len(s) > 2000 {
		s = "..." + s[len(s)-2000:]
	}
	return s
}

func round(d time.Duration) string { return d.Round(time.Millisecond).String() }

func fail(err error) {
	fmt.Fprintln(os.Stderr, "bench:", err)
	os.Exit(1)
}
