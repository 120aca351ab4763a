package sourcetest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// GitRepo is a git repository in a temporary directory, for sources
// given as file:// URLs (no server).
type GitRepo struct {
	t testing.TB
	// Dir is the work tree.
	Dir string
}

// NewGitRepo makes an empty repository on branch main, or skips the test
// when git is not installed.
func NewGitRepo(t testing.TB) *GitRepo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed, so git module sources cannot be tested")
	}
	dir := filepath.Join(t.TempDir(), "src")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	r := &GitRepo{t: t, Dir: dir}
	r.Git("init", "-q", "-b", "main")
	return r
}

// Git runs git in the work tree with an identity and no user or system
// configuration, and returns its output without the final newline.
func (r *GitRepo) Git(args ...string) string {
	r.t.Helper()
	return git(r.t, r.Dir, args...)
}

// fixedGitDates date every commit and tag alike, so that a repository
// built the same way has the same hashes on every run (tests that record
// what a run sees rely on it).
var fixedGitDates = []string{"GIT_AUTHOR_DATE=2024-01-02T03:04:05Z", "GIT_COMMITTER_DATE=2024-01-02T03:04:05Z"}

// noHousekeeping turns off git's automatic gc and maintenance, in the
// commands the tests run and in those they start (receive-pack after a
// push): a process or more per commit and push, for repositories that
// live a few seconds.
var noHousekeeping = []string{"GIT_CONFIG_COUNT=3",
	"GIT_CONFIG_KEY_0=gc.auto", "GIT_CONFIG_VALUE_0=0",
	"GIT_CONFIG_KEY_1=maintenance.auto", "GIT_CONFIG_VALUE_1=false",
	"GIT_CONFIG_KEY_2=receive.autogc", "GIT_CONFIG_VALUE_2=false"}

func git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	base := []string{"-c", "user.name=strata", "-c", "user.email=strata@example.com", "-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false", "-c", "init.defaultBranch=main"}
	cmd := exec.Command("git", append(base, args...)...)
	cmd.Dir = dir
	cmd.Env = append(append(append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1"), fixedGitDates...), noHousekeeping...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// Commit writes files (path → content) over the work tree and commits
// them, tagging the commit when tag is set, and returns the commit's id.
func (r *GitRepo) Commit(files map[string]string, tag string) string {
	r.t.Helper()
	for name, content := range files {
		p := filepath.Join(r.Dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			r.t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			r.t.Fatal(err)
		}
	}
	r.Git("add", "-A")
	r.Git("commit", "-q", "-m", "change")
	if tag != "" {
		r.Git("tag", tag)
	}
	return r.Git("rev-parse", "HEAD")
}

// Bare clones the repository as a bare one beside the work tree and
// returns its path; a later call pushes the new commits and tags to it.
func (r *GitRepo) Bare() string {
	r.t.Helper()
	dst := filepath.Join(filepath.Dir(r.Dir), "repo.git")
	if _, err := os.Stat(dst); os.IsNotExist(err) {
		git(r.t, filepath.Dir(r.Dir), "clone", "-q", "--bare", r.Dir, dst)
	} else {
		r.Git("push", "-q", "--all", dst)
		r.Git("push", "-q", "--tags", dst)
	}
	return dst
}

// ModuleRepo makes a bare repository whose v1.0 tag holds version "one"
// of a module in vpc/ (calling a local module vpc/inner) and whose main
// branch has moved on to "two". It also has a branch dev at v1.0.
func ModuleRepo(t testing.TB) (bare, v1Commit string) {
	t.Helper()
	r := NewGitRepo(t)
	v1Commit = r.Commit(map[string]string{
		"main.tf":           `output "version" { value = "root-one" }`,
		"vpc/main.tf":       "output \"version\" { value = \"one\" }\nmodule \"inner\" {\n  source = \"./inner\"\n}\n",
		"vpc/inner/main.tf": `output "i" { value = 1 }`,
		"other/main.tf":     `output "o" { value = 1 }`,
	}, "v1.0")
	r.Git("branch", "dev")
	r.Commit(map[string]string{"vpc/main.tf": "output \"version\" { value = \"two\" }\nmodule \"inner\" {\n  source = \"./inner\"\n}\n"}, "")
	return r.Bare(), v1Commit
}
