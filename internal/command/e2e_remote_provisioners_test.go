package command

import (
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-dev/strata/internal/communicator/ssh/sshtest"
)

// remoteProvisionerConfig exercises remote-exec and file against the test
// sshd: a file, a directory with and without a trailing slash, content,
// inline commands, script files, a failure (the object is tainted), a
// failure with on_failure = continue, a per-provisioner connection over a
// resource's, a sensitive value in the command (output suppressed), a
// connection through a bastion host (the same server) and a destroy-time
// provisioner referring to self. The bastion resource's connection holds
// a password (the bastion's defaults to it) from a sensitive variable.
const remoteProvisionerConfig = `
variable "port" {}
variable "user" {}
variable "key_file" {}
variable "host_key" {}
variable "dest" {}
variable "proxy_port" {}
variable "secret" {
  default   = "hunter2"
  sensitive = true
}
locals {
  conn = {
    host        = "127.0.0.1"
    port        = var.port
    user        = var.user
    private_key = file(var.key_file)
  }
}
resource "terraform_data" "files" {
  # A destroy-time provisioner's connection may refer only to self.
  input = {
    dest     = var.dest
    port     = var.port
    user     = var.user
    key      = file(var.key_file)
    host_key = var.host_key
  }
  connection {
    host        = "127.0.0.1"
    port        = self.input.port
    user        = self.input.user
    private_key = self.input.key
    host_key    = self.input.host_key
    agent       = false
  }
  provisioner "file" {
    source      = "src"
    destination = "${self.input.dest}/copy"
  }
  provisioner "file" {
    source      = "src/"
    destination = self.input.dest
  }
  provisioner "file" {
    content     = "hello ${self.input.dest}\n"
    destination = "${self.input.dest}/content.txt"
  }
  provisioner "file" {
    source      = "src/a.txt"
    destination = "${self.input.dest}/copy/"
  }
  provisioner "remote-exec" {
    inline = [
      "cd ${self.input.dest}",
      "find . -type f | sort",
      "echo",
      "cat content.txt",
      # Terraform may print a last line without newline after the
      # creation is complete: strata prints it before.
      "printf 'last line\\n'",
    ]
  }
  provisioner "remote-exec" {
    when   = destroy
    inline = ["rm -r ${self.input.dest}/copy && echo removed copy"]
  }
}
resource "terraform_data" "scripts" {
  connection {
    host        = local.conn.host
    port        = local.conn.port
    user        = local.conn.user
    private_key = local.conn.private_key
    agent       = false
  }
  provisioner "remote-exec" {
    scripts = ["one.sh", "two.sh"]
  }
  provisioner "remote-exec" {
    script = "one.sh"
  }
}
resource "terraform_data" "fail" {
  connection {
    host        = local.conn.host
    port        = local.conn.port
    user        = local.conn.user
    private_key = local.conn.private_key
    agent       = false
  }
  provisioner "remote-exec" {
    inline = ["echo failing", "exit 3"]
  }
}
resource "terraform_data" "cont" {
  connection {
    host  = local.conn.host
    user  = "nobody-at-all"
    agent = false
  }
  provisioner "remote-exec" {
    inline     = ["echo continuing", "exit 4"]
    on_failure = continue
    connection {
      port        = local.conn.port
      user        = local.conn.user
      private_key = local.conn.private_key
    }
  }
}
resource "terraform_data" "secret" {
  connection {
    host        = local.conn.host
    port        = local.conn.port
    user        = local.conn.user
    private_key = local.conn.private_key
    agent       = false
  }
  provisioner "remote-exec" {
    inline = ["echo ${var.secret}"]
  }
}
resource "terraform_data" "bastion" {
  connection {
    host         = local.conn.host
    port         = local.conn.port
    user         = local.conn.user
    private_key  = local.conn.private_key
    agent        = false
    bastion_host = "127.0.0.1"
    script_path  = "${var.dest}/../bastion_%RAND%.sh"
    # A secret in the connection does not suppress the output.
    password = var.secret
  }
  provisioner "remote-exec" {
    inline = ["echo through the bastion"]
  }
}
`

// The proxied resource connects through an HTTP proxy, the agent one
// with the key of the agent SSH_AUTH_SOCK names (the default when no
// agent argument says otherwise), the cert one with a key the server
// knows only through the certificate its authority signed.
const remoteProvisionerProxied = `
variable "cert_key_file" {}
variable "cert" {}
resource "terraform_data" "agent" {
  connection {
    host = "127.0.0.1"
    port = var.port
    user = var.user
  }
  provisioner "remote-exec" {
    inline = ["echo with the agent"]
  }
}
resource "terraform_data" "cert" {
  connection {
    host        = "127.0.0.1"
    port        = var.port
    user        = var.user
    private_key = file(var.cert_key_file)
    certificate = var.cert
    agent       = false
  }
  provisioner "remote-exec" {
    inline = ["echo with a certificate"]
  }
}
resource "terraform_data" "proxied" {
  connection {
    host                = "127.0.0.1"
    port                = var.port
    user                = var.user
    private_key         = file(var.key_file)
    agent               = false
    proxy_host          = "127.0.0.1"
    proxy_port          = var.proxy_port
    proxy_user_name     = "bob"
    proxy_user_password = "pw"
  }
  provisioner "remote-exec" {
    inline = ["echo through the proxy"]
  }
}
`

// withRemovedFiles returns remoteProvisionerConfig with the files
// resource replaced by a removed block with a destroy-time provisioner.
func withRemovedFiles(t *testing.T) string {
	t.Helper()
	start := strings.Index(remoteProvisionerConfig, `resource "terraform_data" "files" {`)
	end := strings.Index(remoteProvisionerConfig, `resource "terraform_data" "scripts" {`)
	if start < 0 || end < 0 {
		t.Fatal("files resource not found")
	}
	return remoteProvisionerConfig[:start] + `removed {
  from = terraform_data.files
  connection {
    host        = "127.0.0.1"
    port        = self.input.port
    user        = self.input.user
    private_key = self.input.key
    agent       = false
  }
  provisioner "remote-exec" {
    when   = destroy
    inline = ["rm -r ${self.input.dest}/copy && echo removed copy by the removed block"]
  }
}
` + remoteProvisionerConfig[end:]
}

// remoteProvisionerRun is what one tool did with remoteProvisionerConfig:
// apply, apply without the files resource (withRemovedFiles), destroy.
type remoteProvisionerRun struct {
	outputs []map[string][]string
	stderr  []string
	codes   []int
	state   []string
	// files are the files in the destination after the apply.
	files []string
}

var scriptPathRe = regexp.MustCompile(`(/terraform|/bastion)_[0-9]+\.sh`)

func runRemoteProvisioners(t *testing.T, bin string, env []string, srv *sshtest.Server, proxyPort int, dest string) remoteProvisionerRun {
	t.Helper()
	if err := os.RemoveAll(dest); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dest, 0o755); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), remoteProvisionerConfig+remoteProvisionerProxied)
	if err := os.MkdirAll(filepath.Join(dir, "src", "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "src", "a.txt"), "a\n")
	writeFile(t, filepath.Join(dir, "src", "sub", "b.txt"), "b\n")
	writeFile(t, filepath.Join(dir, "one.sh"), "echo script one\n")
	writeFile(t, filepath.Join(dir, "two.sh"), "#!/bin/bash\necho script two \"$BASH_VERSION\" | cut -c1-16\n")
	_, certKey := sshtest.NewKey(t)
	writeFile(t, filepath.Join(dir, "cert_key"), certKey)
	vars := []string{
		"-var", "cert_key_file=" + filepath.Join(dir, "cert_key"), "-var", "cert=" + srv.CertFor(t, certKey),
		"-var", "port=" + strconv.Itoa(srv.Port), "-var", "user=" + srv.User, "-var", "key_file=" + srv.UserKeyPath,
		"-var", "host_key=" + srv.HostKey, "-var", "dest=" + dest, "-var", "proxy_port=" + strconv.Itoa(proxyPort),
	}
	if filepath.Base(bin) == "terraform" {
		if res := runWith(t, dir, "", bin, env, "init", "-no-color", "-input=false"); res.code != 0 {
			t.Fatalf("terraform init: %s%s", res.stdout, res.stderr)
		}
	}
	var r remoteProvisionerRun
	for i, args := range [][]string{{"apply"}, {"apply"}, {"destroy"}} {
		if i == 1 {
			// The files resource gives way to a removed block, whose
			// destroy-time provisioner runs.
			writeFile(t, filepath.Join(dir, "main.tf"), withRemovedFiles(t)+remoteProvisionerProxied)
		}
		res := runWith(t, dir, "", bin, env, append(append(args, "-auto-approve", "-no-color", "-input=false"), vars...)...)
		stdout := scriptPathRe.ReplaceAllString(productless(res.stdout), "${1}_RAND.sh")
		var kept []string
		for _, l := range strings.Split(stdout, "\n") {
			if !strings.Contains(l, "Still creating...") && !strings.Contains(l, "Still destroying...") {
				kept = append(kept, l)
			}
		}
		r.outputs = append(r.outputs, completionLast(byResource(strings.Join(kept, "\n"))))
		r.stderr = append(r.stderr, normalize(scriptPathRe.ReplaceAllString(productless(res.stderr), "${1}_RAND.sh")))
		r.codes = append(r.codes, res.code)
		if i == 0 {
			r.state = instanceStatuses(t, filepath.Join(dir, "terraform.tfstate"))
			filepath.Walk(dest, func(p string, fi os.FileInfo, err error) error {
				if err == nil && !fi.IsDir() {
					rel, _ := filepath.Rel(dest, p)
					data, _ := os.ReadFile(p)
					r.files = append(r.files, rel+" "+fi.Mode().String()+" "+strings.TrimSpace(string(data)))
				}
				return nil
			})
		}
	}
	return r
}

func instanceStatuses(t *testing.T, path string) []string {
	t.Helper()
	var st struct {
		Resources []struct {
			Name      string `json:"name"`
			Instances []struct {
				Status string `json:"status"`
			} `json:"instances"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(readFile(t, path), &st); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, res := range st.Resources {
		for _, inst := range res.Instances {
			out = append(out, strings.TrimSpace(res.Name+" "+inst.Status))
		}
	}
	sort.Strings(out)
	return out
}

// TestE2ERemoteProvisioners applies remoteProvisionerConfig against a
// real sshd on loopback and checks what strata printed, copied, ran and
// recorded.
func TestE2ERemoteProvisioners(t *testing.T) {
	t.Parallel()
	srv := sshtest.Start(t, sshtest.Options{})
	env := []string{"SSH_AUTH_SOCK=" + sshtest.AgentSocket(t, srv.UserKey, "test key")}
	var tunnels atomic.Int32
	proxyPort := sshtest.HTTPProxy(t, &tunnels)
	dest := filepath.Join(t.TempDir(), "dest")
	got := runRemoteProvisioners(t, strataBin, env, srv, proxyPort, dest)

	// The tainted object of terraform_data.fail is replaced in the second
	// apply, and fails again.
	if diff := cmp.Diff([]int{1, 1, 0}, got.codes); diff != "" {
		t.Errorf("wrong exit codes (-want +got)\n%s\n%s", diff, got.stderr)
	}
	wantFiles := []string{
		"a.txt -rw-r--r-- a",
		"content.txt -rw-r--r-- hello " + dest,
		"copy/a.txt -rw-r--r-- a",
		// A destination ending in a slash names a file in it.
		"copy/copy -rw-r--r-- a",
		"copy/sub/b.txt -rw-r--r-- b",
		"sub/b.txt -rw-r--r-- b",
	}
	for i, f := range got.files {
		got.files[i] = scriptPathRe.ReplaceAllString(f, "${1}_RAND.sh")
	}
	if diff := cmp.Diff(wantFiles, got.files); diff != "" {
		t.Errorf("wrong files after apply (-want +got)\n%s", diff)
	}
	if diff := cmp.Diff([]string{"agent", "bastion", "cert", "cont", "fail tainted", "files", "proxied", "scripts", "secret"}, got.state); diff != "" {
		t.Errorf("wrong state (-want +got)\n%s", diff)
	}
	connecting := func(addr string, bastion bool) []string {
		p := addr + " (remote-exec): "
		out := []string{
			p + "Connecting to remote host via SSH...", p + "  Host: 127.0.0.1", p + "  User: " + srv.User,
			p + "  Password: " + strconv.FormatBool(bastion), p + "  Private key: true", p + "  Certificate: false", p + "  SSH Agent: false",
			p + "  Checking Host Key: false", p + "  Target Platform: unix",
		}
		if bastion {
			out = append(out, p+"Using configured bastion host...", p+"  Host: 127.0.0.1", p+"  User: "+srv.User,
				p+"  Password: true", p+"  Private key: true", p+"  Certificate: false", p+"  SSH Agent: false",
				p+"  Checking Host Key: false")
		}
		return append(out, p+"Connected!")
	}
	files := []string{
		"terraform_data.files: Creating...",
		"terraform_data.files: Provisioning with 'file'...",
		"terraform_data.files: Provisioning with 'file'...",
		"terraform_data.files: Provisioning with 'file'...",
		"terraform_data.files: Provisioning with 'file'...",
		"terraform_data.files: Provisioning with 'remote-exec'...",
	}
	files = append(files, strings.ReplaceAll(strings.Join(connecting("terraform_data.files", false), "\n"), "Checking Host Key: false", "Checking Host Key: true"))
	files = strings.Split(strings.Join(files, "\n"), "\n")
	p := "terraform_data.files (remote-exec): "
	files = append(files, p+"./a.txt", p+"./content.txt", p+"./copy/a.txt", p+"./copy/copy", p+"./copy/sub/b.txt", p+"./sub/b.txt",
		p+"hello "+dest, p+"last line", "terraform_data.files: Creation complete after Ns [id=<uuid>]")
	if diff := cmp.Diff(files, got.outputs[0]["terraform_data.files"]); diff != "" {
		t.Errorf("wrong output for terraform_data.files (-want +got)\n%s", diff)
	}
	secret := got.outputs[0]["terraform_data.secret"]
	if len(secret) < 3 || secret[2] != "terraform_data.secret (remote-exec): (output suppressed due to sensitive value in config)" {
		t.Errorf("output with a sensitive value not suppressed: %q", secret)
	}
	for _, l := range secret {
		if strings.Contains(l, "hunter2") {
			t.Errorf("a sensitive value was printed: %q", l)
		}
	}
	bastion := append([]string{"terraform_data.bastion: Creating...", "terraform_data.bastion: Provisioning with 'remote-exec'..."},
		connecting("terraform_data.bastion", true)...)
	bastion = append(bastion, "terraform_data.bastion (remote-exec): through the bastion", "terraform_data.bastion: Creation complete after Ns [id=<uuid>]")
	if diff := cmp.Diff(bastion, got.outputs[0]["terraform_data.bastion"]); diff != "" {
		t.Errorf("wrong output for terraform_data.bastion (-want +got)\n%s", diff)
	}
	proxied := strings.Join(got.outputs[0]["terraform_data.proxied"], "\n")
	p = "terraform_data.proxied (remote-exec): "
	if !strings.Contains(proxied, p+"Using configured proxy host...\n"+p+"  ProxyHost: 127.0.0.1\n"+p+"  ProxyPort: "+strconv.Itoa(proxyPort)+"\n"+p+"  ProxyUserName: bob\n"+p+"  ProxyUserPassword: true\n"+p+"Connected!\n"+p+"through the proxy") {
		t.Errorf("wrong output for terraform_data.proxied:\n%s", proxied)
	}
	if tunnels.Load() < 1 {
		t.Errorf("no connection went through the proxy")
	}
	for addr, want := range map[string]string{
		"terraform_data.agent": "  Password: false\n  Private key: false\n  Certificate: false\n  SSH Agent: true\n",
		"terraform_data.cert":  "  Password: false\n  Private key: true\n  Certificate: true\n  SSH Agent: false\n",
	} {
		lines := strings.Join(got.outputs[0][addr], "\n")
		lines = strings.ReplaceAll(lines, addr+" (remote-exec): ", "")
		if !strings.Contains(lines, want) || !strings.Contains(lines, "Connected!\nwith ") {
			t.Errorf("wrong output for %s:\n%s", addr, lines)
		}
	}
	scripts := strings.Join(got.outputs[0]["terraform_data.scripts"], "\n")
	if !strings.Contains(scripts, "(remote-exec): script one\n") || !strings.Contains(scripts, "(remote-exec): script two 5.") ||
		strings.Count(scripts, "script one") != 2 {
		t.Errorf("wrong output for terraform_data.scripts:\n%s", scripts)
	}
	stderr := flat(got.stderr[0])
	for _, want := range []string{
		`Error: remote-exec provisioner error with terraform_data.fail, on main.tf line ` + strconv.Itoa(lineOf(remoteProvisionerConfig, `inline = ["echo failing", "exit 3"]`)-1) + `, in resource "terraform_data" "fail":`,
		`error executing "/tmp/terraform_RAND.sh": Process exited with status 3`,
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("errors lack %q:\n%s", want, got.stderr[0])
		}
	}
	if strings.Contains(stderr, "status 4") {
		t.Errorf("a failure with on_failure = continue was reported:\n%s", got.stderr[0])
	}
	destroy := got.outputs[1]["terraform_data.files"]
	if !slicesContain(destroy, "terraform_data.files (remote-exec): removed copy by the removed block") {
		t.Errorf("destroy-time provisioner did not run:\n%s", strings.Join(destroy, "\n"))
	}
	if _, err := os.Stat(filepath.Join(dest, "copy")); !os.IsNotExist(err) {
		t.Errorf("destroy-time provisioner did not remove the copy: %v", err)
	}
}

func slicesContain(lines []string, want string) bool {
	for _, l := range lines {
		if l == want {
			return true
		}
	}
	return false
}

// withoutRetries drops, for each resource, the connection banners of
// attempts that were retried: how many attempts a loaded machine needs
// before "Connected!" is timing, for either tool.
func withoutRetries(out map[string][]string) map[string][]string {
	const banner = "Connecting to remote host via SSH..."
	clean := make(map[string][]string, len(out))
	for res, lines := range out {
		var kept []string
		start := -1 // index in kept of the current attempt's banner
		for _, line := range lines {
			switch {
			case strings.HasSuffix(line, banner):
				if start >= 0 {
					kept = kept[:start] // an earlier attempt, retried
				}
				start = len(kept)
			case strings.HasSuffix(line, "Connected!"):
				start = -1
			}
			kept = append(kept, line)
		}
		clean[res] = kept
	}
	return clean
}

// TestE2ERemoteProvisionersMatchTerraform applies remoteProvisionerConfig
// with both tools against the same sshd and destination, and compares
// what they print resource by resource, their errors, exit codes, the
// files they copied and the states they recorded.
func TestE2ERemoteProvisionersMatchTerraform(t *testing.T) {
	t.Parallel()
	tf := liveTerraform(t)
	srv := sshtest.Start(t, sshtest.Options{})
	env := []string{"SSH_AUTH_SOCK=" + sshtest.AgentSocket(t, srv.UserKey, "test key")}
	var tunnels atomic.Int32
	proxyPort := sshtest.HTTPProxy(t, &tunnels)
	dest := filepath.Join(t.TempDir(), "dest")
	want := runRemoteProvisioners(t, tf, env, srv, proxyPort, dest)
	got := runRemoteProvisioners(t, strataBin, env, srv, proxyPort, dest)
	if diff := cmp.Diff(want.codes, got.codes); diff != "" {
		t.Errorf("exit codes differ (-terraform +strata)\n%s", diff)
	}
	for i := range want.outputs {
		if diff := cmp.Diff(withoutRetries(want.outputs[i]), withoutRetries(got.outputs[i])); diff != "" {
			t.Errorf("step %d: output differs (-terraform +strata)\n%s", i+1, diff)
		}
		if diff := cmp.Diff(flat(want.stderr[i]), flat(got.stderr[i])); diff != "" {
			t.Errorf("step %d: errors differ (-terraform +strata)\n%s\n--- terraform\n%s\n--- strata\n%s", i+1, diff, want.stderr[i], got.stderr[i])
		}
	}
	norm := func(files []string) []string {
		out := make([]string, len(files))
		for i, f := range files {
			out[i] = scriptPathRe.ReplaceAllString(f, "${1}_RAND.sh")
		}
		return out
	}
	if diff := cmp.Diff(norm(want.files), norm(got.files)); diff != "" {
		t.Errorf("copied files differ (-terraform +strata)\n%s", diff)
	}
	if diff := cmp.Diff(want.state, got.state); diff != "" {
		t.Errorf("states differ (-terraform +strata)\n%s", diff)
	}
}

// TestE2ERemoteProvisionerErrorsMatchTerraform: the errors of remote
// provisioners that cannot run — a missing source or script, another
// connection type than ssh, no connection block, an invalid private key,
// an unreachable host — are Terraform's, word for word.
func TestE2ERemoteProvisionerErrorsMatchTerraform(t *testing.T) {
	t.Parallel()
	tf := liveTerraform(t)
	srv := sshtest.Start(t, sshtest.Options{})
	closed := freeLoopbackPort(t)
	config := `
variable "port" {}
variable "key_file" {}
variable "closed" {}
resource "terraform_data" "missing_source" {
  connection {
    host        = "127.0.0.1"
    port        = var.port
    private_key = file(var.key_file)
  }
  provisioner "file" {
    source      = "missing"
    destination = "/tmp/x"
  }
}
resource "terraform_data" "type" {
  connection {
    type = "ftp"
    host = "x"
  }
  provisioner "remote-exec" {
    inline = ["a"]
  }
}
resource "terraform_data" "no_connection" {
  provisioner "remote-exec" {
    inline = ["a"]
  }
}
resource "terraform_data" "bad_key" {
  connection {
    host        = "127.0.0.1"
    port        = var.port
    private_key = "garbage"
  }
  provisioner "file" {
    content     = "x"
    destination = "/tmp/x"
  }
}
resource "terraform_data" "missing_script" {
  connection {
    host        = "127.0.0.1"
    port        = var.port
    private_key = file(var.key_file)
  }
  provisioner "remote-exec" {
    script = "missing.sh"
  }
}
resource "terraform_data" "unreachable" {
  connection {
    host        = "127.0.0.1"
    port        = var.closed
    private_key = file(var.key_file)
    agent       = false
    timeout     = "2500ms"
  }
  provisioner "remote-exec" {
    inline = ["a"]
  }
}
`
	do := func(bin string) (string, string, []string) {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "main.tf"), config)
		if bin == tf {
			runIn(t, dir, "", tf, "init", "-no-color", "-input=false")
		}
		res := runIn(t, dir, "", bin, "apply", "-auto-approve", "-no-color", "-input=false",
			"-var", "port="+strconv.Itoa(srv.Port), "-var", "key_file="+srv.UserKeyPath, "-var", "closed="+strconv.Itoa(closed))
		var unreachable []string
		for _, l := range byResource(productless(res.stdout))["terraform_data.unreachable"] {
			if !strings.Contains(l, "Still creating") {
				unreachable = append(unreachable, l)
			}
		}
		return strconv.Itoa(res.code), flat(productless(res.stderr)), unreachable
	}
	wantCode, wantErr, wantOut := do(tf)
	gotCode, gotErr, gotOut := do(strataBin)
	if wantCode != gotCode {
		t.Errorf("exit code %s, terraform's %s", gotCode, wantCode)
	}
	if diff := cmp.Diff(wantErr, gotErr); diff != "" {
		t.Errorf("errors differ (-terraform +strata)\n%s", diff)
	}
	// Two attempts to connect within the timeout, at 0s and 1s (the next
	// would be at 3s).
	if diff := cmp.Diff(wantOut, gotOut); diff != "" {
		t.Errorf("output for the unreachable host differs (-terraform +strata)\n%s", diff)
	}
}

func freeLoopbackPort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// TestE2ERemoteProvisionerValidateMatchTerraform: validate finds the same
// errors in remote provisioner and connection blocks as Terraform, by
// summary and detail (strata's also point at the provisioner block).
func TestE2ERemoteProvisionerValidateMatchTerraform(t *testing.T) {
	t.Parallel()
	tf := liveTerraform(t)
	config := `
resource "terraform_data" "a" {
  connection {
    port = 22
  }
  provisioner "remote-exec" {}
}
resource "terraform_data" "b" {
  connection {
    host  = "x"
    bogus = 1
  }
  provisioner "remote-exec" {
    inline = ["a"]
    script = "x.sh"
  }
  # Not validated: validation stops at the first provisioner with errors.
  provisioner "file" {
    destination = "/tmp/x"
  }
}
resource "terraform_data" "d" {
  connection {
    host = "x"
  }
  provisioner "file" {
    content     = "a"
    source      = "x"
    destination = "/tmp/x"
  }
}
resource "terraform_data" "e" {
  provisioner "file" {
    destination = "/tmp/x"
  }
}
resource "terraform_data" "f" {
  provisioner "file" {
    content = "a"
  }
}
resource "terraform_data" "c" {
  connection {
    type       = "winrm"
    host       = self.id
    https      = true
    proxy_host = "p"
  }
  provisioner "remote-exec" {
    inline = ["a"]
  }
}
`
	errorsOf := func(bin string) []string {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "main.tf"), config)
		if bin == tf {
			runIn(t, dir, "", tf, "init", "-no-color", "-input=false")
		}
		res := runIn(t, dir, "", bin, "validate", "-no-color")
		if res.code != 1 {
			t.Fatalf("%s validate: exit %d\n%s%s", bin, res.code, res.stdout, res.stderr)
		}
		// Each diagnostic: its summary and its detail, without the
		// source location.
		var out []string
		for _, block := range strings.Split(res.stderr, "\nError: ")[1:] {
			var kept []string
			for _, l := range strings.Split(block, "\n") {
				if strings.HasPrefix(l, "  on ") || regexp.MustCompile(`^ *[0-9]+: `).MatchString(l) || strings.TrimSpace(l) == "" {
					continue
				}
				kept = append(kept, l)
			}
			out = append(out, flat(strings.Join(kept, " ")))
		}
		sort.Strings(out)
		return out
	}
	want := errorsOf(tf)
	got := errorsOf(strataBin)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("validate errors differ (-terraform +strata)\n%s", diff)
	}
	if len(got) != 7 {
		t.Errorf("%d errors, want 7: %q", len(got), got)
	}
}

// lineOf returns the number of the line of src that contains s.
func lineOf(src, s string) int {
	return strings.Count(src[:strings.Index(src, s)], "\n") + 1
}

// completionLast moves each resource's "Creation complete" and
// "Destruction complete" lines after its other lines: Terraform may show
// the last lines of a script after them, as it does not wait for the
// script's output to be copied.
func completionLast(out map[string][]string) map[string][]string {
	for addr, lines := range out {
		if addr == "" {
			continue
		}
		sort.SliceStable(lines, func(i, j int) bool {
			done := func(l string) bool {
				return strings.Contains(l, ": Creation complete after") || strings.Contains(l, ": Destruction complete after")
			}
			return !done(lines[i]) && done(lines[j])
		})
	}
	return out
}
