// Command bench measures strata against Terraform on N chained
// terraform_data resources: apply from an empty state, then a no-op plan.
// Run it with `make bench` (BENCH_N sets N).
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

func main() {
	n := flag.Int("n", 2000, "number of chained resources")
	strata := flag.String("strata", "bin/strata", "path to the strata binary")
	flag.Parse()
	bin, err := filepath.Abs(*strata)
	if err != nil {
		fail(err)
	}
	src := chainConfig(*n)
	fmt.Printf("%d chained terraform_data resources\n\n", *n)
	fmt.Printf("%-10s %12s %12s\n", "tool", "apply", "no-op plan")
	sApply, sPlan := measure(bin, src)
	fmt.Printf("%-10s %12s %12s\n", "strata", round(sApply), round(sPlan))
	tf, err := exec.LookPath("terraform")
	if err != nil {
		fmt.Println("\nterraform is not on PATH; skipping the comparison")
		return
	}
	tApply, tPlan := measure(tf, src)
	fmt.Printf("%-10s %12s %12s\n", "terraform", round(tApply), round(tPlan))
	fmt.Printf("\nstrata is %.1fx faster to apply and %.1fx faster to plan\n",
		tApply.Seconds()/sApply.Seconds(), tPlan.Seconds()/sPlan.Seconds())
}

// chainConfig returns a configuration of n terraform_data resources, each
// taking the previous one's output as input.
func chainConfig(n int) string {
	var b strings.Builder
	b.WriteString("resource \"terraform_data\" \"r0\" {\n  input = \"start\"\n}\n")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "resource \"terraform_data\" \"r%d\" {\n  input = terraform_data.r%d.output\n}\n", i, i-1)
	}
	return b.String()
}

// measure runs init, apply and a no-op plan with tool in a fresh directory
// and returns the apply and plan durations.
func measure(tool, src string) (apply, plan time.Duration) {
	dir, err := os.MkdirTemp("", "strata-bench-")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(dir)
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(src), 0o644); err != nil {
		fail(err)
	}
	run(dir, tool, "init", "-input=false")
	apply = run(dir, tool, "apply", "-auto-approve", "-input=false", "-no-color")
	plan = run(dir, tool, "plan", "-input=false", "-no-color", "-detailed-exitcode")
	return apply, plan
}

func run(dir, tool string, args ...string) time.Duration {
	cmd := exec.Command(tool, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1")
	start := time.Now()
	out, err := cmd.CombinedOutput()
	elapsed := time.Since(start)
	if err != nil {
		fail(fmt.Errorf("%s %s: %v\n%s", filepath.Base(tool), strings.Join(args, " "), err, tail(out)))
	}
	return elapsed
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
