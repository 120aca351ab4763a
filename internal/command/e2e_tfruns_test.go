package command

// Recorded terraform runs.
//
// Many end-to-end tests run terraform 1.11 on the same input as strata
// and compare what the two print and write. Running terraform is most of
// the time of this package's tests, and a machine without terraform (a
// fresh CI runner) would skip the comparisons. So each terraform run is
// recorded in testdata/terraform-runs/<top-level test>.json, keyed by
// everything terraform can read (arguments, standard input, environment,
// the files of the test's temporary directory), and replayed: the same
// exit code, output and file changes, without terraform.
//
// Paths of temporary directories, UUIDs and provider hashes differ from
// run to run and machine to machine: they are replaced in keys and
// recordings by tokens numbered in order of appearance, and replayed with
// the values of the current run. The test providers are matched by name,
// and by a digest of their source that is part of every key.
//
// A run that reaches something outside the files, a server on a loopback
// address, PostgreSQL or a provider process to reattach to, is never
// recorded: what terraform would find there is not in the key. It runs
// terraform, or skips the test when terraform is not installed.
//
// STRATA_TERRAFORM_RUNS chooses:
//
//	(unset)  replay recorded runs; run terraform for a run that is not
//	         recorded, and fail the test when terraform is not installed
//	         (with terraform, the package fails at the end, naming the
//	         tests to record: reportNotRecorded)
//	record   run terraform every time and rewrite the recordings of the
//	         tests that ran (run whole top-level tests: a test's file is
//	         replaced by the runs of this session)
//	live     run terraform every time, ignore the recordings

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

// tfRunsDir holds the recordings, one file per top-level test.
const tfRunsDir = "testdata/terraform-runs"

// tfRunsMode is STRATA_TERRAFORM_RUNS: "", "record" or "live".
var tfRunsMode = os.Getenv("STRATA_TERRAFORM_RUNS")

// tfRecording is the file of one top-level test's terraform runs.
type tfRecording struct {
	Terraform string           `json:"terraform"`
	Runs      map[string]tfRun `json:"runs"`
	// Outcomes are recorded outcomes (see recordedOutcome).
	Outcomes map[string]json.RawMessage `json:"outcomes,omitempty"`
}

// tfRun is one recorded terraform run.
type tfRun struct {
	// Args are for a reader of the file: the key holds them too.
	Args   string            `json:"args"`
	Code   int               `json:"code"`
	Stdout string            `json:"stdout,omitempty"`
	Stderr string            `json:"stderr,omitempty"`
	Files  map[string]tfFile `json:"files,omitempty"`
}

// tfFile is a change terraform made to a file or directory under the
// test's temporary directory, by path relative to it.
type tfFile struct {
	Text   *string `json:"text,omitempty"`
	Binary []byte  `json:"binary,omitempty"`
	// Size is that of a file too large to record (a provider package
	// terraform unpacked), replayed as a file of zeros of that size: it
	// counts in later keys by its presence only.
	Size    int64  `json:"size,omitempty"`
	Link    string `json:"link,omitempty"`
	Dir     bool   `json:"dir,omitempty"`
	Deleted bool   `json:"deleted,omitempty"`
}

var tfRuns = struct {
	sync.Mutex
	once     sync.Once
	path     string // the installed terraform, "" when there is none
	version  string
	loaded   map[string]*tfRecording // as read, by top-level test
	recorded map[string]*tfRecording // this session's runs, in record mode
	unsound  map[string]bool         // tests with runs that cannot be recorded
	// missing counts, by top-level test, the runs and outcomes that could
	// have been replayed but were not recorded (or their recording went
	// stale), so terraform ran.
	missing map[string]int
}{loaded: map[string]*tfRecording{}, recorded: map[string]*tfRecording{}, unsound: map[string]bool{}, missing: map[string]int{}}

// tfReplayName stands for terraform when it is not installed and the
// comparisons replay recorded runs.
const tfReplayName = "terraform (recorded)"

// referenceTerraform is the terraform the comparisons run, as
// referenceTerraform() would return it; when terraform is not
// installed it is a stand-in whose runs runWith replays (except in live
// mode).
func referenceTerraform() (string, error) {
	tfRuns.once.Do(func() {
		tfRuns.path, _ = exec.LookPath("terraform")
	})
	switch {
	case tfRuns.path != "":
		return tfRuns.path, nil
	case tfRunsMode == "live" || tfRunsMode == "record":
		return "", exec.ErrNotFound
	}
	return tfReplayName, nil
}

// sameAsTerraform compares got, what run(strataBin) returned, with what
// run returns for the reference terraform, the product's name aside; it
// does nothing when there is no terraform to compare with.
func sameAsTerraform(t *testing.T, got string, run func(bin string) string) {
	t.Helper()
	tf, err := referenceTerraform()
	if err != nil {
		return
	}
	product := regexp.MustCompile(`(?i)terraform|strata`)
	if want := run(tf); product.ReplaceAllString(want, "PRODUCT") != product.ReplaceAllString(got, "PRODUCT") {
		t.Errorf("differs from terraform:\nterraform:\n%s\nstrata:\n%s", want, got)
	}
}

// isReferenceTerraform reports whether bin is what referenceTerraform
// returned.
func isReferenceTerraform(bin string) bool {
	tf, err := referenceTerraform()
	return err == nil && bin == tf
}

// runTerraform runs terraform as runWith does, through the recordings.
func runTerraform(t *testing.T, dir, stdin, bin string, env []string, args ...string) result {
	t.Helper()
	if tfRunsMode == "live" || isMarked(&liveTests, t) || isMarked(&outcomeTests, t) {
		return runProcess(t, dir, stdin, bin, env, args...)
	}
	root := tempRoot(dir)
	tok := newTokenizer(root)
	scope, before := runScope(root, dir, stdin, args, env)
	key, sound := tok.key(root, dir, stdin, args, env, before)
	key = occurrence(t, key)
	test, _, _ := strings.Cut(t.Name(), "/")
	if !sound {
		tfRuns.Lock()
		tfRuns.unsound[test] = true
		tfRuns.Unlock()
		if bin == tfReplayName {
			t.Skipf("terraform %s reaches a server or a provider process, so it cannot be replayed, and terraform is not installed to run it", strings.Join(args, " "))
		}
		return runProcess(t, dir, stdin, bin, env, args...)
	}
	if tfRunsMode != "record" {
		if run, ok := lookupRun(test, key); ok {
			return replayRun(t, root, tok, run)
		}
		if bin == tfReplayName {
			t.Fatalf("terraform %s: this run is not recorded in %s/%s.json and terraform is not installed to run it; "+
				"record it on a machine with terraform 1.11 with STRATA_TERRAFORM_RUNS=record go test -run '^%s$'",
				strings.Join(args, " "), tfRunsDir, test, test)
		}
		notRecorded(test)
		return runProcess(t, dir, stdin, bin, env, args...)
	}
	r := runProcess(t, dir, stdin, bin, env, args...)
	run := tfRun{
		Args:   tok.text(strings.Join(args, " ")),
		Code:   r.code,
		Stdout: tok.text(r.stdout),
		Stderr: tok.text(r.stderr),
		Files:  changes(tok, before, snapshotTree(root, scope)),
	}
	tfRuns.Lock()
	defer tfRuns.Unlock()
	rec := tfRuns.recorded[test]
	if rec == nil {
		rec = &tfRecording{Terraform: terraformVersion(t, bin), Runs: map[string]tfRun{}}
		tfRuns.recorded[test] = rec
	}
	rec.Runs[key] = run
	return r
}

// occurrences counts the runs of each (test, key): subtests that make
// the same run, and a test that makes it twice, each get their own
// recording (terraform's output is not always the same: the order of
// check results in a state, say, and later runs see what it wrote).
var occurrences = struct {
	sync.Mutex
	n map[string]int
}{n: map[string]int{}}

// occurrence is key made distinct per test and per repetition.
func occurrence(t *testing.T, key string) string {
	occurrences.Lock()
	defer occurrences.Unlock()
	id := t.Name() + "\x00" + key
	occurrences.n[id]++
	sum := sha256.Sum256([]byte(fmt.Sprintf("%s#%d", id, occurrences.n[id])))
	return hex.EncodeToString(sum[:16])
}

// liveTests are the tests (by name) that liveTerraform marked.
var liveTests sync.Map

// isMarked reports whether t or a test above it is in tests.
func isMarked(tests *sync.Map, t *testing.T) bool {
	for name := t.Name(); ; {
		if _, ok := tests.Load(name); ok {
			return true
		}
		i := strings.LastIndex(name, "/")
		if i < 0 {
			return false
		}
		name = name[:i]
	}
}

// lookupRun finds the recorded run of test with key.
func lookupRun(test, key string) (tfRun, bool) {
	run, ok := loadedRecording(test).Runs[key]
	return run, ok
}

// loadedRecording is the recording of a top-level test, as read (empty
// when there is none).
func loadedRecording(test string) *tfRecording {
	tfRuns.Lock()
	defer tfRuns.Unlock()
	rec, ok := tfRuns.loaded[test]
	if !ok {
		rec = &tfRecording{}
		if data, err := os.ReadFile(filepath.Join(tfRunsDir, test+".json")); err == nil {
			if err := json.Unmarshal(data, rec); err != nil {
				panic(fmt.Sprintf("%s/%s.json: %v", tfRunsDir, test, err))
			}
		}
		tfRuns.loaded[test] = rec
	}
	return rec
}

// replayRun applies a recorded run's file changes under root and returns
// its outcome.
func replayRun(t *testing.T, root string, tok *tokenizer, run tfRun) result {
	t.Helper()
	paths := make([]string, 0, len(run.Files))
	for p := range run.Files {
		paths = append(paths, p)
	}
	// Deletions first, then parents before children.
	sort.Slice(paths, func(i, j int) bool {
		di, dj := run.Files[paths[i]].Deleted, run.Files[paths[j]].Deleted
		if di != dj {
			return di
		}
		return paths[i] < paths[j]
	})
	for _, p := range paths {
		f := run.Files[p]
		path := tok.restore(p)
		if !filepath.IsAbs(path) {
			path = filepath.Join(root, path)
		}
		var err error
		switch {
		case f.Deleted:
			err = os.RemoveAll(path)
		case f.Dir:
			err = os.MkdirAll(path, 0o755)
		case f.Size > 0:
			os.Remove(path)
			if err = os.MkdirAll(filepath.Dir(path), 0o755); err == nil {
				err = os.WriteFile(path, nil, 0o755)
			}
			if err == nil {
				err = os.Truncate(path, f.Size)
			}
		case f.Link != "":
			os.Remove(path)
			if err = os.MkdirAll(filepath.Dir(path), 0o755); err == nil {
				err = os.Symlink(tok.restore(f.Link), path)
			}
		default:
			data := f.Binary
			if f.Text != nil {
				data = []byte(tok.restore(*f.Text))
			}
			if err = os.MkdirAll(filepath.Dir(path), 0o755); err == nil {
				err = os.WriteFile(path, data, 0o644)
			}
		}
		if err != nil {
			t.Fatalf("replaying terraform %s: %v", run.Args, err)
		}
	}
	return result{code: run.Code, stdout: tok.restore(run.Stdout), stderr: tok.restore(run.Stderr)}
}

// terraformVersion is the version of the installed terraform; the caller
// holds tfRuns' lock.
func terraformVersion(t *testing.T, bin string) string {
	if tfRuns.version == "" {
		out, err := exec.Command(bin, "version", "-json").Output()
		var v struct {
			Version string `json:"terraform_version"`
		}
		if err != nil || json.Unmarshal(out, &v) != nil {
			t.Fatalf("terraform version -json: %v\n%s", err, out)
		}
		tfRuns.version = v.Version
	}
	return tfRuns.version
}

// saveTerraformRuns writes the recordings of record mode; TestMain calls
// it once every test has run.
func saveTerraformRuns() error {
	tfRuns.Lock()
	defer tfRuns.Unlock()
	if len(tfRuns.recorded) > 0 {
		if err := os.MkdirAll(tfRunsDir, 0o755); err != nil {
			return err
		}
	}
	if tfRunsMode == "record" && len(tfRuns.unsound) > 0 {
		var names []string
		for test := range tfRuns.unsound {
			names = append(names, test)
		}
		sort.Strings(names)
		fmt.Fprintf(os.Stderr, "terraform runs that reach a server or a provider process, not recorded: %s\n", strings.Join(names, " "))
	}
	for test, rec := range tfRuns.recorded {
		data, err := json.MarshalIndent(rec, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(tfRunsDir, test+".json"), append(data, '\n'), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// notRecorded counts a replayable terraform run (or outcome) of the
// top-level test that had no recording, so terraform ran.
func notRecorded(test string) {
	tfRuns.Lock()
	defer tfRuns.Unlock()
	tfRuns.missing[test]++
}

// reportNotRecorded fails the package, once every test has run, when
// tests ran terraform for runs that could have been replayed: their
// recordings are missing or stale (a source file in a digest changed).
// Such a test fails on a machine without terraform, and passes here only
// by running terraform, slowly.
func reportNotRecorded() error {
	tfRuns.Lock()
	defer tfRuns.Unlock()
	if len(tfRuns.missing) == 0 || tfRunsMode != "" {
		return nil
	}
	var names, counts []string
	for test := range tfRuns.missing {
		names = append(names, test)
	}
	sort.Strings(names)
	for _, test := range names {
		counts = append(counts, fmt.Sprintf("%s (%d)", test, tfRuns.missing[test]))
	}
	msg := fmt.Sprintf("terraform ran for runs that are not recorded (or whose recordings are stale): %s; record them with STRATA_TERRAFORM_RUNS=record go test -run '^(%s)$' ./internal/command",
		strings.Join(counts, ", "), strings.Join(names, "|"))
	return errors.New(msg)
}

// tempRoot is the directory of dir's test under the temporary directory
// (what every t.TempDir of one test shares), or dir itself.
func tempRoot(dir string) string {
	tmp := filepath.Clean(os.TempDir()) + string(filepath.Separator)
	if rest, ok := strings.CutPrefix(dir, tmp); ok {
		name, _, _ := strings.Cut(rest, string(filepath.Separator))
		return tmp + name
	}
	return dir
}

// treeEntry is a file or directory under a test's temporary directory.
type treeEntry struct {
	dir  bool
	link string
	data []byte // nil for a file too large to compare
	size int64
}

// maxTreeFile is the largest file keys and recordings hold (provider
// binaries are larger, and are matched by name only).
const maxTreeFile = 1 << 20

// pathRefs finds paths in a run's arguments, environment, input and
// files: absolute ones in the temporary directory, and relative ones that
// leave the working directory.
func pathRefs(s string) []string {
	var refs []string
	for i := 0; i < len(s); i++ {
		var j int
		switch {
		case s[i] == tmpPrefix[0] && strings.HasPrefix(s[i:], tmpPrefix):
			j = i + len(tmpPrefix)
			for j < len(s) && isTempNameByte(s[j]) {
				j++
			}
		case s[i] == '.' && strings.HasPrefix(s[i:], "../"):
			j = i + 3
		default:
			continue
		}
		for j < len(s) && !isPathEnd(s[j]) {
			j++
		}
		refs = append(refs, s[i:j])
		i = j
	}
	return refs
}

// isPathEnd reports whether c ends a path written in a configuration, an
// argument or a variable.
func isPathEnd(c byte) bool {
	return c <= ' ' || strings.IndexByte(`"'\:,;=)]}`, c) >= 0
}

// runScope is what a run may read or write: its working directory, and
// the files and directories in the temporary directory that its
// arguments, environment, input and configuration name. (Other tests'
// directories, and strata's side of a comparison, stay out of its key.)
// It returns the snapshot of the scope too, read once.
func runScope(root, dir, stdin string, args, env []string) ([]string, map[string]treeEntry) {
	scope := []string{dir}
	texts := append(append([]string{stdin}, args...), env...)
	tree := snapshotTree(root, scope)
	for _, e := range tree {
		if e.data != nil && utf8.Valid(e.data) {
			texts = append(texts, string(e.data))
		}
	}
	seen := map[string]bool{dir: true}
	tmp := filepath.Clean(os.TempDir())
	for _, text := range texts {
		for _, ref := range pathRefs(text) {
			if !filepath.IsAbs(ref) {
				ref = filepath.Join(dir, ref)
			}
			ref = filepath.Clean(ref)
			// The temporary directory itself ("../.." from a test's
			// directory, say) holds every other test's files: not a
			// path terraform is given to read.
			if seen[ref] || ref == tmp || !within(tmp, ref) || within(dir, ref) {
				continue
			}
			seen[ref] = true
			scope = append(scope, ref)
		}
	}
	for _, top := range scope[1:] {
		walkTree(root, top, tree)
	}
	return scope, tree
}

// within reports whether path is dir or under it.
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// snapshotTree reads the files under the paths of scope that terraform
// may read or write (everything but strata's own files in .terraform),
// by path relative to root (absolute outside it).
func snapshotTree(root string, scope []string) map[string]treeEntry {
	tree := map[string]treeEntry{}
	for _, top := range scope {
		walkTree(root, top, tree)
	}
	return tree
}

func walkTree(root, top string, tree map[string]treeEntry) {
	filepath.WalkDir(top, func(path string, d fs.DirEntry, err error) error {
		if err != nil || path == root {
			return nil
		}
		rel := path
		if within(root, path) {
			rel, _ = filepath.Rel(root, path)
		}
		if _, done := tree[rel]; done && d.IsDir() {
			return filepath.SkipDir
		}
		if skipTreePath(rel) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		switch {
		case d.IsDir():
			tree[rel] = treeEntry{dir: true}
		case d.Type()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(path)
			tree[rel] = treeEntry{link: target}
		case d.Type().IsRegular():
			info, err := d.Info()
			if err != nil {
				return nil
			}
			e := treeEntry{size: info.Size()}
			if info.Size() <= maxTreeFile {
				e.data, _ = os.ReadFile(path)
				if e.data == nil {
					e.data = []byte{}
				}
			}
			tree[rel] = e
		}
		return nil
	})
}

// skipTreePath reports whether a path relative to a test's temporary
// directory is left out of keys and recordings: in .terraform, only the
// backend settings, the selected workspace, installed modules and
// providers count (terraform links the providers of an unpacked mirror;
// a provider binary is matched by name only); and git's reflogs (.git/logs,
// which date the clone of a module) are left out everywhere.
func skipTreePath(rel string) bool {
	parts := strings.Split(rel, string(filepath.Separator))
	for i, p := range parts {
		if p == ".git" && i+1 < len(parts) && parts[i+1] == "logs" {
			return true
		}
		if p != ".terraform" || i == len(parts)-1 {
			continue
		}
		switch parts[i+1] {
		case "terraform.tfstate", "environment", "modules", "providers":
			continue
		}
		return true
	}
	return false
}

// changes are the differences between two snapshots of a tree, as
// recorded.
func changes(tok *tokenizer, before, after map[string]treeEntry) map[string]tfFile {
	out := map[string]tfFile{}
	for rel, a := range after {
		b, had := before[rel]
		switch {
		case a.dir:
			if !had || !b.dir {
				out[tok.text(rel)] = tfFile{Dir: true}
			}
		case a.link != "":
			if !had || b.link != a.link {
				out[tok.text(rel)] = tfFile{Link: tok.text(a.link)}
			}
		case a.data == nil:
			// Too large to record (a provider binary, say): its size.
			if !had || b.data != nil || b.size != a.size {
				out[tok.text(rel)] = tfFile{Size: a.size}
			}
		case !had || b.data == nil || !bytes.Equal(a.data, b.data):
			if utf8.Valid(a.data) {
				text := tok.text(string(a.data))
				out[tok.text(rel)] = tfFile{Text: &text}
			} else {
				out[tok.text(rel)] = tfFile{Binary: a.data}
			}
		}
	}
	for rel := range before {
		if _, ok := after[rel]; !ok {
			out[tok.text(rel)] = tfFile{Deleted: true}
		}
	}
	return out
}

// namesFile reports whether an argument of a run in dir names the file
// at path.
func namesFile(args []string, dir, path string) bool {
	for _, a := range args {
		if strings.HasPrefix(a, "-") {
			_, a, _ = strings.Cut(a, "=")
		}
		if a == "" {
			continue
		}
		if !filepath.IsAbs(a) {
			a = filepath.Join(dir, a)
		}
		if filepath.Clean(a) == path {
			return true
		}
	}
	return false
}

// tokenizer replaces what differs between runs and machines with tokens
// numbered in order of appearance, and back.
type tokenizer struct {
	fixed  *strings.Replacer
	tokens map[string]string // value → token
	values map[string]string // token → value
	counts map[string]int
	// frozen stops the numbering of new values: once a run's key is
	// made, values that appear only in its output (a new lineage, say)
	// are recorded as they are.
	frozen bool
}

// The values a tokenizer numbers, found by tokenAt: temporary
// directories ("tmp"), UUIDs ("uuid"), provider package hashes ("hash")
// and the Unix time in the names of the backups state commands write
// ("backup"). (Hand-written scanners: regular expressions over every
// file of every run were most of the tests' own CPU time.)

// tmpPrefix starts the path of a test's temporary directory.
var tmpPrefix = filepath.Clean(os.TempDir()) + "/"

// tokenAt returns the end and class of the value that starts at s[i], or
// i when none does.
func tokenAt(s string, i int) (int, string) {
	if s[i] == '1' {
		if j := staticServerAt(s, i); j > i {
			return j, "server"
		}
	}
	switch c := s[i]; {
	case c == tmpPrefix[0] && strings.HasPrefix(s[i:], tmpPrefix):
		j := i + len(tmpPrefix)
		for j < len(s) && isTempNameByte(s[j]) {
			j++
		}
		if j > i+len(tmpPrefix) {
			return j, "tmp"
		}
	case c == 'h' && strings.HasPrefix(s[i:], "h1:"):
		// h1: and 43 base64 characters and '='.
		if n := i + 3 + 44; n <= len(s) && s[n-1] == '=' && all(s[i+3:n-1], isBase64Byte) {
			return n, "hash"
		}
	case c == 'z' && strings.HasPrefix(s[i:], "zh:"):
		if n := i + 3 + 64; n <= len(s) && all(s[i+3:n], isLowerHex) {
			return n, "hash"
		}
	case c == '.' && i+18 <= len(s) && s[i+11] == '.' && s[i+12:i+18] == "backup" && all(s[i+1:i+11], isDigit):
		return i + 18, "backup"
	case isLowerHex(c) && i+36 <= len(s) && s[i+8] == '-' && s[i+13] == '-' && s[i+18] == '-' && s[i+23] == '-':
		if all(s[i:i+8], isLowerHex) && all(s[i+9:i+13], isLowerHex) && all(s[i+14:i+18], isLowerHex) &&
			all(s[i+19:i+23], isLowerHex) && all(s[i+24:i+36], isLowerHex) {
			return i + 36, "uuid"
		}
	}
	return i, ""
}

// isTempNameByte reports whether c can be part of the name of a test's
// temporary directory: the characters of a test's name that t.TempDir
// keeps, and digits.
func isTempNameByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || isDigit(c) || strings.IndexByte("!#$%&()+,-.=@^_{}~", c) >= 0
}

func isDigit(c byte) bool    { return '0' <= c && c <= '9' }
func isLowerHex(c byte) bool { return isDigit(c) || 'a' <= c && c <= 'f' }
func isBase64Byte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || isDigit(c) || c == '+' || c == '/'
}

func all(s string, f func(byte) bool) bool {
	for i := 0; i < len(s); i++ {
		if !f(s[i]) {
			return false
		}
	}
	return true
}

// unreplayable reports whether a run's input holds what makes terraform
// reach beyond its files: a loopback address, a PostgreSQL connection, a
// provider process to reattach to.
func unreplayable(s string) bool {
	if strings.Contains(s, "postgres://") || strings.Contains(s, "postgresql://") || strings.Contains(s, "TF_REATTACH_PROVIDERS=") {
		return true
	}
	for _, host := range []string{"127.0.0.1:", "localhost:", "[::1]:"} {
		for rest := s; ; {
			k := strings.Index(rest, host)
			if k < 0 {
				break
			}
			rest = rest[k+len(host):]
			if len(rest) >= 2 && isDigit(rest[0]) && isDigit(rest[1]) {
				return true
			}
		}
	}
	return false
}

// testProvidersDigest is a digest of the test providers' source (the
// binaries differ from machine to machine), part of every key.
var testProvidersDigest = sync.OnceValue(func() string {
	h := sha256.New()
	root := filepath.Join("..", "providers", "plugin", "testdata")
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			data, _ := os.ReadFile(path)
			fmt.Fprintf(h, "%s %d\n", filepath.ToSlash(path), len(data))
			h.Write(data)
		}
		return nil
	})
	return hex.EncodeToString(h.Sum(nil))
})

// newTokenizer makes the tokenizer of a run whose test's temporary
// directory is root.
func newTokenizer(root string) *tokenizer {
	tok := &tokenizer{tokens: map[string]string{}, values: map[string]string{}, counts: map[string]int{}}
	// The run's temporary directory and the machine's own directories,
	// longest first so that the e2e binary cache wins over the home
	// directory that holds it.
	pairs := [][2]string{{root, "⟦root⟧"}}
	if root, err := moduleRoot(); err == nil {
		pairs = append(pairs, [2]string{root, "⟦repo⟧"})
	}
	if bin, err := e2eBinDir(); err == nil {
		pairs = append(pairs, [2]string{bin, "⟦bin⟧"})
	}
	if home, err := os.UserHomeDir(); err == nil && len(home) > 1 {
		pairs = append(pairs, [2]string{home, "⟦home⟧"})
	}
	sort.Slice(pairs, func(i, j int) bool { return len(pairs[i][0]) > len(pairs[j][0]) })
	var oldnew []string
	for _, p := range pairs {
		oldnew = append(oldnew, p[0], p[1])
		tok.values[p[1]] = p[0]
	}
	tok.fixed = strings.NewReplacer(oldnew...)
	return tok
}

// text replaces the known values in s by their tokens, numbering the
// values it has not met before.
func (tok *tokenizer) text(s string) string {
	s = tok.fixed.Replace(s)
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); {
		j, class := tokenAt(s, i)
		if j == i {
			i++
			continue
		}
		b.WriteString(s[last:i])
		b.WriteString(tok.token(s[i:j], class))
		i, last = j, j
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// token is the token of value v of a class.
func (tok *tokenizer) token(v, class string) string {
	if t, ok := tok.tokens[v]; ok {
		return t
	}
	if tok.frozen {
		return v
	}
	tok.counts[class]++
	t := "⟦" + class + strconv.Itoa(tok.counts[class]) + "⟧"
	tok.tokens[v], tok.values[t] = t, v
	return t
}

// restore replaces tokens by this run's values.
func (tok *tokenizer) restore(s string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "⟦")
		if i < 0 {
			break
		}
		j := strings.Index(s[i:], "⟧")
		if j < 0 {
			break
		}
		j += i + len("⟧")
		b.WriteString(s[:i])
		if v, ok := tok.values[s[i:j]]; ok {
			b.WriteString(v)
		} else {
			b.WriteString(s[i:j])
		}
		s = s[j:]
	}
	b.WriteString(s)
	return b.String()
}

// key is the recording key of a run: everything terraform reads, with
// the tokens of this run, hashed. sound is false when terraform would
// read more than that.
func (tok *tokenizer) key(root, dir, stdin string, args, env []string, tree map[string]treeEntry) (key string, sound bool) {
	h := sha256.New()
	var trace strings.Builder
	sound = true
	put := func(s string) {
		sound = sound && !unreplayable(s)
		fmt.Fprintf(h, "%d:%s\n", len(s), s)
		fmt.Fprintf(&trace, "%d:%s\n", len(s), s)
	}
	defer func() {
		if dir := os.Getenv("STRATA_TERRAFORM_RUNS_TRACE"); dir != "" {
			os.WriteFile(filepath.Join(dir, key+".txt"), []byte(trace.String()), 0o644)
		}
	}()
	put(testProvidersDigest())
	put(tok.text(root))
	put(tok.text(dir))
	for _, a := range args {
		put(tok.text(a))
	}
	put("env")
	for _, e := range env {
		put(tok.text(e))
	}
	put(tok.text(stdin))
	rels := make([]string, 0, len(tree))
	for rel := range tree {
		rels = append(rels, rel)
	}
	sort.Strings(rels)
	for _, rel := range rels {
		e := tree[rel]
		if strings.HasSuffix(rel, ".backup") {
			// Terraform reads no backup; strata names its own by the
			// second, so how many there are depends on timing.
			continue
		}
		put(tok.text(rel))
		switch {
		case e.dir:
			put("dir")
		case e.link != "":
			put("link " + tok.text(e.link))
		case e.data == nil:
			put("large")
		case utf8.Valid(e.data):
			put(tok.text(string(e.data)))
		case namesFile(args, dir, filepath.Join(root, rel)):
			// A plan file the run reads.
			sum := sha256.Sum256(e.data)
			put(hex.EncodeToString(sum[:]))
		default:
			// Terraform reads no binary file it is not given (strata's
			// plan files beside it differ on every run).
			put("binary")
		}
	}
	for _, d := range tok.staticDigests() {
		put("static " + d)
	}
	tok.frozen = true
	return hex.EncodeToString(h.Sum(nil))[:32], sound
}
