package provisioners

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	commssh "github.com/strata-dev/strata/internal/communicator/ssh"
)

// connection returns a connection block value with attrs set and the
// other arguments null.
func connection(attrs map[string]cty.Value) cty.Value {
	vals := map[string]cty.Value{}
	for name, attr := range ConnectionSchema.Attributes {
		vals[name] = cty.NullVal(attr.Type)
	}
	for k, v := range attrs {
		vals[k] = v
	}
	return cty.ObjectVal(vals)
}

func TestSSHConfig(t *testing.T) {
	tests := map[string]struct {
		agentSock string
		attrs     map[string]cty.Value
		want      commssh.Config
		wantErr   string
	}{
		"defaults": {
			attrs: map[string]cty.Value{"host": cty.StringVal("h")},
			want:  commssh.Config{Host: "h", Port: 22, User: "root", TargetPlatform: "unix", Timeout: 5 * time.Minute},
		},
		"agent by default when SSH_AUTH_SOCK is set, even with a key": {
			agentSock: "/tmp/agent.sock",
			attrs:     map[string]cty.Value{"host": cty.StringVal("h"), "private_key": cty.StringVal("k")},
			want:      commssh.Config{Host: "h", Port: 22, User: "root", PrivateKey: "k", Agent: true, AgentSocket: "/tmp/agent.sock", TargetPlatform: "unix", Timeout: 5 * time.Minute},
		},
		"agent turned off": {
			agentSock: "/tmp/agent.sock",
			attrs:     map[string]cty.Value{"host": cty.StringVal("h"), "agent": cty.False},
			want:      commssh.Config{Host: "h", Port: 22, User: "root", TargetPlatform: "unix", Timeout: 5 * time.Minute},
		},
		"everything": {
			attrs: map[string]cty.Value{
				"type": cty.StringVal("ssh"), "host": cty.StringVal("h"), "port": cty.NumberIntVal(2222),
				"user": cty.StringVal("u"), "password": cty.StringVal("p"), "private_key": cty.StringVal("k"),
				"certificate": cty.StringVal("c"), "host_key": cty.StringVal("hk"), "agent": cty.True,
				"agent_identity": cty.StringVal("id"), "timeout": cty.StringVal("30s"), "script_path": cty.StringVal("/s.sh"),
				"target_platform": cty.StringVal("unix"),
				"bastion_host":    cty.StringVal("b"), "bastion_host_key": cty.StringVal("bhk"),
			},
			want: commssh.Config{
				Host: "h", Port: 2222, User: "u", Password: "p", PrivateKey: "k", Certificate: "c", HostKey: "hk",
				Agent: true, AgentIdentity: "id", Timeout: 30 * time.Second, ScriptPath: "/s.sh", TargetPlatform: "unix",
				// The bastion's settings default to the target's.
				Bastion: &commssh.Bastion{Host: "b", Port: 2222, User: "u", Password: "p", PrivateKey: "k", Certificate: "c", HostKey: "bhk"},
			},
		},
		"bastion settings": {
			attrs: map[string]cty.Value{
				"host": cty.StringVal("h"), "private_key": cty.StringVal("k"),
				"bastion_host": cty.StringVal("b"), "bastion_port": cty.NumberIntVal(2022), "bastion_user": cty.StringVal("bu"),
				"bastion_password": cty.StringVal("bp"), "bastion_private_key": cty.StringVal("bk"), "bastion_certificate": cty.StringVal("bc"),
			},
			want: commssh.Config{
				Host: "h", Port: 22, User: "root", PrivateKey: "k", TargetPlatform: "unix", Timeout: 5 * time.Minute,
				Bastion: &commssh.Bastion{Host: "b", Port: 2022, User: "bu", Password: "bp", PrivateKey: "bk", Certificate: "bc"},
			},
		},
		"invalid timeout is the default": {
			attrs: map[string]cty.Value{"host": cty.StringVal("h"), "timeout": cty.StringVal("abc")},
			want:  commssh.Config{Host: "h", Port: 22, User: "root", TargetPlatform: "unix", Timeout: 5 * time.Minute},
		},
		"windows": {
			attrs: map[string]cty.Value{"host": cty.StringVal("h"), "target_platform": cty.StringVal("windows")},
			want:  commssh.Config{Host: "h", Port: 22, User: "root", TargetPlatform: "windows", Timeout: 5 * time.Minute, ScriptPath: "C:/Windows/Temp/terraform_%RAND%.cmd"},
		},
		"no connection": {
			wantErr: "Missing connection configuration for provisioner.",
		},
		"winrm": {
			attrs:   map[string]cty.Value{"host": cty.StringVal("h"), "type": cty.StringVal("winrm")},
			wantErr: "connection type 'winrm' not supported: strata connects to remote hosts over SSH only",
		},
		"other type": {
			attrs:   map[string]cty.Value{"host": cty.StringVal("h"), "type": cty.StringVal("ftp")},
			wantErr: "connection type 'ftp' not supported",
		},
		"proxy": {
			attrs: map[string]cty.Value{"host": cty.StringVal("h"), "proxy_host": cty.StringVal("p"), "proxy_port": cty.NumberIntVal(3128)},
			want: commssh.Config{Host: "h", Port: 22, User: "root", TargetPlatform: "unix", Timeout: 5 * time.Minute,
				Proxy: &commssh.Proxy{Scheme: "http", Host: "p", Port: 3128}},
		},
		"socks proxy": {
			attrs: map[string]cty.Value{
				"host": cty.StringVal("h"), "proxy_scheme": cty.StringVal("socks5"), "proxy_host": cty.StringVal("p"),
				"proxy_user_name": cty.StringVal("u"), "proxy_user_password": cty.StringVal("pw"),
			},
			want: commssh.Config{Host: "h", Port: 22, User: "root", TargetPlatform: "unix", Timeout: 5 * time.Minute,
				Proxy: &commssh.Proxy{Scheme: "socks5", Host: "p", UserName: "u", UserPassword: "pw"}},
		},
		"bad platform": {
			attrs:   map[string]cty.Value{"host": cty.StringVal("h"), "target_platform": cty.StringVal("plan9")},
			wantErr: "target_platform for provisioner has to be either unix or windows",
		},
		"bad port": {
			attrs:   map[string]cty.Value{"host": cty.StringVal("h"), "port": cty.NumberFloatVal(2.5)},
			wantErr: "invalid port 2.5: a port must be a whole number from 0 to 65535",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Setenv("SSH_AUTH_SOCK", tc.agentSock)
			conn := cty.NullVal(ConnectionSchema.ImpliedType())
			if tc.attrs != nil {
				conn = connection(tc.attrs)
			}
			got, err := SSHConfig(conn, "", nil)
			gotErr := ""
			if err != nil {
				gotErr = err.Error()
			}
			if gotErr != tc.wantErr {
				t.Fatalf("wrong error\nwant: %s\ngot:  %s", tc.wantErr, gotErr)
			}
			if err != nil {
				return
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("wrong config (-want +got)\n%s", diff)
			}
		})
	}
}

func TestLineWriter(t *testing.T) {
	var got []string
	w := &LineWriter{Output: func(s string) { got = append(got, s) }}
	for _, chunk := range []string{"one\r\ntw", "o\n\n", "thr", "ee"} {
		w.Write([]byte(chunk))
	}
	w.Flush()
	w.Flush()
	if diff := cmp.Diff([]string{"one", "two", "", "three"}, got); diff != "" {
		t.Errorf("wrong lines (-want +got)\n%s", diff)
	}
}
