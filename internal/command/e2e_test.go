package command

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The end-to-end tests build the strata binary once and run it on the
// configurations under testdata/, the way a user would.

var (
	update    = flag.Bool("update", false, "rewrite golden files")
	strataBin string
	// subprocessRuns is STRATA_TEST_SUBPROCESS: strata runs as a
	// process in every test (see runWith).
	subprocessRuns = os.Getenv("STRATA_TEST_SUBPROCESS") != ""
)

func TestMain(m *testing.M) {
	flag.Parse()
	// The parallel tests mostly wait for the processes they start
	// (providers, terraform, postgres) and for their own timers: run
	// several per core, unless -parallel says otherwise (on two cores, 8
	// took the package from 82 s to 70 s; 16 gained nothing more).
	explicit := false
	flag.Visit(func(f *flag.Flag) { explicit = explicit || f.Name == "test.parallel" })
	if !explicit {
		_ = flag.Set("test.parallel", strconv.Itoa(max(8, 4*runtime.GOMAXPROCS(0))))
	}
	var err error
	if strataBin, err = buildStrata(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	stray := strayFiles()
	code := m.Run()
	if now := strayFiles(); len(now) > len(stray) && code == 0 {
		fmt.Fprintf(os.Stderr, "FAIL: an in-process command wrote into the test directory: %v\n", now)
		code = 1
	}
	removeSharedMirrors()
	if err := saveTerraformRuns(); err != nil {
		fmt.Fprintln(os.Stderr, "FAIL: saving the recorded terraform runs:", err)
		code = 1
	}
	if err := reportNotRecorded(); err != nil && code == 0 {
		fmt.Fprintln(os.Stderr, "FAIL:", err)
		code = 1
	}
	os.Exit(code)
}

// result is the outcome of one strata run.
type result struct {
	stdout, stderr string
	code           int
}

// strata runs the binary in dir with args.
func strata(t *testing.T, dir string, args ...string) result {
	t.Helper()
	return runIn(t, dir, "", strataBin, args...)
}

func runIn(t *testing.T, dir, stdin, bin string, args ...string) result {
	t.Helper()
	return runWith(t, dir, stdin, bin, nil, args...)
}

// runWith is runIn with more environment variables (which override the
// defaults: TF_IN_AUTOMATION, no checkpoint, an empty CLI configuration).
// strata (strataBin) runs in this process (runInProcess), unless
// STRATA_TEST_SUBPROCESS is set: then every run starts the binary, as
// a user's shell does. Tests of what only a process has (signals, exit
// on a second interrupt, kill -9) start the binary themselves.
func runWith(t *testing.T, dir, stdin, bin string, env []string, args ...string) result {
	t.Helper()
	env = append(testEnvFor(t), env...)
	if isReferenceTerraform(bin) {
		return runTerraform(t, dir, stdin, bin, env, args...)
	}
	if bin == strataBin && !subprocessRuns {
		vars := map[string]string{}
		for _, kv := range env {
			k, v, _ := strings.Cut(kv, "=")
			vars[k] = v
		}
		return runInProcess(t, dir, vars, stdin, args...)
	}
	return runProcess(t, dir, stdin, bin, env, args...)
}

// runProcess runs bin in dir with args, stdin and the environment
// variables env (beside the defaults).
func runProcess(t *testing.T, dir, stdin, bin string, env []string, args ...string) result {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1", "TF_CLI_CONFIG_FILE=/dev/null"), env...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running %s: %v", bin, err)
	}
	return result{stdout: out.String(), stderr: errb.String(), code: code}
}

// mustStrata runs strata and fails the test unless it exits with want.
func mustStrata(t *testing.T, dir string, want int, args ...string) result {
	t.Helper()
	r := strata(t, dir, args...)
	if r.code != want {
		t.Fatalf("strata %s: exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), r.code, want, r.stdout, r.stderr)
	}
	return r
}

// workdir copies testdata/<name> into a temporary directory.
func workdir(t *testing.T, name string) string {
	t.Helper()
	dst := t.TempDir()
	src := filepath.Join("testdata", name)
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() || strings.HasSuffix(e.Name(), ".golden") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

var uuidRe = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

// elapsedRe matches the time progress lines report, which depends on how
// loaded the machine is.
var elapsedRe = regexp.MustCompile(` complete after [0-9]+(m[0-9]+)?s`)

// strataNoteRe matches the comment lines strata adds to a human plan and
// Terraform does not print (render.StrataNotePrefix: the replace
// reasons), whole lines and nothing else.
var strataNoteRe = regexp.MustCompile(`(?m)^ *# \(strata\) .*\n`)

// dropStrataNotes removes strata's own plan comment lines, so that a plan
// compares equal to Terraform's; tests of the notes look at them before.
func dropStrataNotes(s string) string {
	return strataNoteRe.ReplaceAllString(s, "")
}

// normalize makes output comparable: ids replaced, trailing spaces gone,
// strata's own plan notes dropped (dropStrataNotes), and progress lines
// (printed in whatever order concurrent operations finish) sorted within
// each run of them.
func normalize(s string) string {
	s = dropStrataNotes(s)
	s = uuidRe.ReplaceAllString(s, "<uuid>")
	s = elapsedRe.ReplaceAllString(s, " complete after <t>")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	progress := func(l string) bool {
		return strings.Contains(l, ": Refreshing state... [id=") || strings.Contains(l, ": Preparing import... [id=") ||
			strings.HasSuffix(l, ": Reading...") || strings.Contains(l, ": Read complete after ")
	}
	for i := 0; i < len(lines); {
		j := i
		for j < len(lines) && progress(lines[j]) {
			j++
		}
		if j > i {
			sort.Strings(lines[i:j])
			i = j
		} else {
			i++
		}
	}
	return strings.Join(lines, "\n")
}

// golden compares got with testdata/<name>/<file>, rewriting it with
// -update.
func golden(t *testing.T, name, file, got string) {
	t.Helper()
	path := filepath.Join("testdata", name, file)
	got = normalize(got)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("missing golden file (run with -update): %v", err)
	}
	if string(want) != got {
		t.Errorf("output differs from %s (run with -update to accept):\n--- want\n%s\n--- got\n%s", path, want, got)
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// flipByteInEntry changes one byte inside a named entry of a zip archive
// without breaking the archive, so that only the plan file's own checksum
// can notice.
func flipByteInEntry(t *testing.T, data []byte, entry string) []byte {
	t.Helper()
	out := append([]byte(nil), data...)
	// Entries are stored deflated; find the local header and flip a byte
	// well inside its compressed data. zip's CRC check or the manifest
	// checksum must then refuse the file.
	i := bytes.Index(out, []byte(entry))
	if i < 0 {
		t.Fatalf("entry %s not found", entry)
	}
	out[i+len(entry)+20] ^= 0xff
	return out
}

// flat joins wrapped lines, so that messages can be searched for phrases
// whatever the line width.
// orderedJSONMessages are the messages of a -json stream but the version
// one, in their order, each without its time and with its keys in one
// order. (jsonMessages normalizes more, and sorts.)
func orderedJSONMessages(t *testing.T, stream string) []string {
	t.Helper()
	var msgs []string
	for _, line := range strings.Split(stream, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("not JSON: %s", line)
		}
		if m["type"] == "version" {
			continue
		}
		delete(m, "@timestamp")
		b, _ := json.Marshal(m)
		msgs = append(msgs, string(b))
	}
	return msgs
}

func flat(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
