package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/strata-dev/strata/internal/equivtest"
)

// equivalenceDir is where the equivalence tests are in Terraform's
// repository: tests/NAME holds each test, outputs/NAME its goldens.
const equivalenceDir = "testing/equivalence-tests"

// terraformRepo finds Terraform's repository under repos: a bare git
// directory as the search tool's fetch leaves it, or a plain clone.
func terraformRepo(repos string) (string, error) {
	for _, dir := range []string{
		filepath.Join(repos, "hashicorp+terraform", "repo"),
		filepath.Join(repos, "terraform", ".git"),
	} {
		if _, err := os.Stat(dir); err == nil {
			return dir, nil
		}
	}
	return "", fmt.Errorf("terraform's repository is not in %s", repos)
}

// equivalenceSource extracts the equivalence tests of Terraform at tag
// into a new temporary directory.
func equivalenceSource(repos, tag string) (string, error) {
	repo, err := terraformRepo(repos)
	if err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp("", "strata-compat-equivalence-")
	if err != nil {
		return "", err
	}
	archive := exec.Command("git", "--git-dir="+repo, "archive", tag, equivalenceDir)
	untar := exec.Command("tar", "-x", "-C", dir)
	pipe, err := archive.StdoutPipe()
	if err != nil {
		return "", err
	}
	untar.Stdin = pipe
	var aerr strings.Builder
	archive.Stderr = &aerr
	if err := untar.Start(); err != nil {
		return "", err
	}
	if err := archive.Run(); err != nil {
		_ = untar.Wait()
		os.RemoveAll(dir)
		return "", fmt.Errorf("git archive %s %s: %v\n%s", tag, equivalenceDir, err, aerr.String())
	}
	if err := untar.Wait(); err != nil {
		os.RemoveAll(dir)
		return "", fmt.Errorf("extracting %s: %v", equivalenceDir, err)
	}
	return dir, nil
}

// runEquivalence runs every equivalence test in src with the CLI binary
// bin, installing providers through cliConfig, and compares its outputs
// with the goldens. A test passes when every output matches. The log at
// logPath has each failing test's differences.
func runEquivalence(src, bin, cliConfig, logPath string) (Results, error) {
	res := Results{Outcomes: map[string]Outcome{}, Output: map[string][]string{}}
	root := filepath.Join(src, equivalenceDir)
	tests, err := equivtest.ReadTests(filepath.Join(root, "tests"))
	if err != nil {
		return res, err
	}
	scratch, err := os.MkdirTemp("", "strata-compat-equivalence-run-")
	if err != nil {
		return res, err
	}
	defer os.RemoveAll(scratch)
	env := append(cleanEnv(), "TF_CLI_CONFIG_FILE="+cliConfig, "CHECKPOINT_DISABLE=1", "TMPDIR="+scratch)
	// strata's deliberate differences (its name in messages, its extra
	// -json messages) are undone before comparing.
	ver, _ := exec.Command(bin, "version").Output()
	isStrata := strings.HasPrefix(string(ver), "strata ")
	var log strings.Builder
	for _, t := range tests {
		start := time.Now()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		outs, err := equivtest.Run(ctx, t, bin, scratch, env)
		cancel()
		var lines []string
		if err != nil {
			lines = append(lines, "run failed: "+err.Error())
		} else {
			if isStrata {
				equivtest.UndoDeliberate(outs)
			}
			diffs, err := equivtest.Compare(filepath.Join(root, "outputs", t.Name), outs)
			if err != nil {
				return res, err
			}
			for _, name := range equivtest.Names(diffs) {
				lines = append(lines, name+" differs (-golden +got):", diffs[name])
			}
		}
		if len(lines) == 0 {
			res.Outcomes[t.Name] = Pass
		} else {
			res.Outcomes[t.Name] = Fail
			res.Output[t.Name] = strings.Split(strings.Join(lines, "\n"), "\n")
		}
		fmt.Fprintf(&log, "%s %s (%s)\n", res.Outcomes[t.Name], t.Name, time.Since(start).Round(time.Millisecond))
		for _, l := range res.Output[t.Name] {
			fmt.Fprintf(&log, "    %s\n", l)
		}
	}
	return res, os.WriteFile(strings.TrimSuffix(logPath, ".jsonl")+".log", []byte(log.String()), 0o644)
}
