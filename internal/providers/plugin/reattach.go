package plugin

import (
	"encoding/json"
	"fmt"
	"net"
	"sort"
	"strings"

	"github.com/hashicorp/go-hclog"
	plugin "github.com/hashicorp/go-plugin"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/providers"
	"github.com/strata-dev/strata/internal/tailbuf"
)

// ReattachEnv is the environment variable that hands strata providers that
// are already running: a JSON object from provider source address to the
// process to connect to, in the form go-plugin prints for a provider
// started in debug mode. terraform-plugin-testing uses it to run the
// provider under test in the test's own process.
const ReattachEnv = "TF_REATTACH_PROVIDERS"

// Reattach describes one running provider process to use instead of an
// installed binary.
type Reattach struct {
	Protocol        string
	ProtocolVersion int
	Pid             int
	Test            bool
	Addr            struct {
		Network string
		String  string
	}
}

// ParseReattach decodes the value of TF_REATTACH_PROVIDERS. An empty value
// means no reattached providers. Keys are provider source addresses, in
// full ("registry.terraform.io/hashicorp/random") or short form
// ("hashicorp/random").
func ParseReattach(value string) (map[addrs.Provider]Reattach, error) {
	if strings.TrimSpace(value) == "" {
		return nil, nil
	}
	var raw map[string]Reattach
	if err := json.Unmarshal([]byte(value), &raw); err != nil {
		return nil, fmt.Errorf("invalid format for %s: %w", ReattachEnv, err)
	}
	out := make(map[addrs.Provider]Reattach, len(raw))
	for _, key := range sortedKeys(raw) {
		p, err := addrs.ParseProviderSource(key)
		if err != nil {
			return nil, fmt.Errorf("error parsing %q as a provider address: %s", key, err)
		}
		r := raw[key]
		if _, err := r.addr(); err != nil {
			return nil, fmt.Errorf("invalid unmanaged provider address for %s in %s: %s", key, ReattachEnv, err)
		}
		out[p] = r
	}
	return out, nil
}

func sortedKeys[T any](m map[string]T) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// addr resolves the process's listening address.
func (r Reattach) addr() (net.Addr, error) {
	switch r.Addr.Network {
	case "unix":
		return net.ResolveUnixAddr("unix", r.Addr.String)
	case "tcp":
		return net.ResolveTCPAddr("tcp", r.Addr.String)
	default:
		return nil, fmt.Errorf("unknown address type %q for %q", r.Addr.Network, r.Addr.String)
	}
}

// protocolVersion is the plugin protocol the process speaks. Providers
// built with older SDKs leave it out; they speak version 5, as Terraform
// also assumes.
func (r Reattach) protocolVersion() int {
	if r.ProtocolVersion == 0 {
		return 5
	}
	return r.ProtocolVersion
}

// ReattachFactory returns a providers.Factory that connects to the running
// process r describes rather than starting one. Closing the provider
// closes the connection; go-plugin ends the process only when it was not
// started in test mode, as Terraform does.
func ReattachFactory(name string, r Reattach) providers.Factory {
	return func() (providers.Interface, error) {
		addr, err := r.addr()
		if err != nil {
			return nil, err
		}
		var set plugin.PluginSet
		switch v := r.protocolVersion(); v {
		case 5:
			set = plugin.PluginSet{pluginName: grpcPlugin5{}}
		case 6:
			set = plugin.PluginSet{pluginName: grpcPlugin6{}}
		default:
			return nil, fmt.Errorf("provider %s: unsupported plugin protocol version %d", name, v)
		}
		protocol := plugin.Protocol(r.Protocol)
		if protocol == "" {
			protocol = plugin.ProtocolGRPC
		}
		p, err := connect(name, nil, tailbuf.New(stderrTail), &plugin.ClientConfig{
			HandshakeConfig:  Handshake,
			Plugins:          set,
			AllowedProtocols: []plugin.Protocol{plugin.ProtocolGRPC},
			Logger:           hclog.NewNullLogger(),
			Reattach: &plugin.ReattachConfig{
				Protocol:        protocol,
				ProtocolVersion: r.protocolVersion(),
				Pid:             r.Pid,
				Test:            r.Test,
				Addr:            addr,
			},
		})
		if err != nil {
			return nil, err
		}
		p.version = r.protocolVersion()
		return p, nil
	}
}
