package command

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"strings"
	"sync"
	"testing"
)

// Recorded outcomes.
//
// Some comparisons cannot record terraform's runs: every run reaches a
// PostgreSQL database or an http server of the test, whose content is not
// in a run's key (see e2e_tfruns_test.go). Where such a test reduces what
// terraform did to an outcome that is the same on every machine (the
// migration matrix: which states are where, lineages and serials named
// after their sources), that outcome is recorded instead, beside the
// test's runs, under the (sub)test's name and a digest of the source
// files that say what terraform is given. Changing one of those files
// makes the recordings stale: the test then runs terraform, or fails
// without it, with the command that records them again.

// outcomeTests are the tests (by name) computing an outcome with
// terraform.
var outcomeTests sync.Map

// recordedOutcome returns terraform's outcome for t: what live returns
// when it runs terraform (tf), or its recording. sources are the files,
// relative to this package, whose content decides what live gives
// terraform.
func recordedOutcome[T any](t *testing.T, tf string, sources []string, live func() T) T {
	t.Helper()
	if tfRunsMode == "live" || isMarked(&liveTests, t) {
		return live()
	}
	// terraform's runs for an outcome are neither replayed nor recorded.
	outcomeTests.Store(t.Name(), true)
	defer outcomeTests.Delete(t.Name())
	key := t.Name() + " " + sourcesDigest(t, sources)
	test, _, _ := strings.Cut(t.Name(), "/")
	if tfRunsMode != "record" {
		rec := loadedRecording(test)
		if raw, ok := rec.Outcomes[key]; ok {
			var out T
			if err := json.Unmarshal(raw, &out); err != nil {
				t.Fatalf("%s/%s.json: outcome of %s: %v", tfRunsDir, test, t.Name(), err)
			}
			return out
		}
		if tf == tfReplayName {
			t.Fatalf("terraform's outcome for %s is not recorded in %s/%s.json (or %s changed) and terraform is not installed to run it; "+
				"record it on a machine with terraform 1.11 with STRATA_TERRAFORM_RUNS=record go test -run '^%s$'",
				t.Name(), tfRunsDir, test, strings.Join(sources, ", "), test)
		}
		notRecorded(test)
		return live()
	}
	out := live()
	raw, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	tfRuns.Lock()
	defer tfRuns.Unlock()
	rec := tfRuns.recorded[test]
	if rec == nil {
		rec = &tfRecording{Terraform: terraformVersion(t, tf), Runs: map[string]tfRun{}}
		tfRuns.recorded[test] = rec
	}
	if rec.Outcomes == nil {
		rec.Outcomes = map[string]json.RawMessage{}
	}
	rec.Outcomes[key] = raw
	return out
}

// sourcesDigest is a digest of the content of files.
func sourcesDigest(t *testing.T, files []string) string {
	t.Helper()
	h := sha256.New()
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		h.Write([]byte(f + "\x00"))
		h.Write(data)
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}
