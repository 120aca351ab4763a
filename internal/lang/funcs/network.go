package funcs

import (
	"fmt"
	"math/big"
	"net"
	"strconv"
	"strings"

	"github.com/apparentlymart/go-cidr/cidr"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/gocty"
)

// parseCIDR parses an address prefix in CIDR notation. Unlike modern
// versions of net.ParseCIDR it accepts IPv4 octets with leading zeros
// (interpreting them as decimal), as Terraform does for compatibility with
// configurations written for older Go versions.
func parseCIDR(s string) (*net.IPNet, error) {
	_, network, err := net.ParseCIDR(s)
	if err == nil {
		return network, nil
	}
	if normalized, ok := stripIPv4LeadingZeros(s); ok {
		if _, network, err2 := net.ParseCIDR(normalized); err2 == nil {
			return network, nil
		}
	}
	return nil, err
}

// stripIPv4LeadingZeros rewrites "010.001.0.0/16" as "10.1.0.0/16". It
// reports false if s doesn't look like an IPv4 prefix.
func stripIPv4LeadingZeros(s string) (string, bool) {
	addr, bits, found := strings.Cut(s, "/")
	if !found {
		return "", false
	}
	octets := strings.Split(addr, ".")
	if len(octets) != 4 {
		return "", false
	}
	for i, o := range octets {
		if o == "" || len(o) > 4 {
			return "", false
		}
		n, err := strconv.ParseUint(o, 10, 8)
		if err != nil {
			return "", false
		}
		octets[i] = strconv.FormatUint(n, 10)
	}
	return strings.Join(octets, ".") + "/" + bits, true
}

func addressBits(network *net.IPNet) int {
	return len(network.IP) * 8
}

// CidrHostFunc calculates the full address of a numbered host within a
// network prefix. Negative host numbers count back from the end of the
// range.
var CidrHostFunc = function.New(&function.Spec{
	Description: "Calculates a full host IP address for a given host number within a given IP network address prefix.",
	Params: []function.Parameter{
		{Name: "prefix", Type: cty.String},
		{Name: "hostnum", Type: cty.Number},
	},
	Type: function.StaticReturnType(cty.String),
	RefineResult: func(b *cty.RefinementBuilder) *cty.RefinementBuilder {
		return b.NotNull()
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		var hostNum *big.Int
		if err := gocty.FromCtyValue(args[1], &hostNum); err != nil {
			return cty.UnknownVal(cty.String), err
		}
		network, err := parseCIDR(args[0].AsString())
		if err != nil {
			return cty.UnknownVal(cty.String), fmt.Errorf("invalid CIDR expression: %s", err)
		}
		ip, err := cidr.HostBig(network, hostNum)
		if err != nil {
			return cty.UnknownVal(cty.String), err
		}
		return cty.StringVal(ip.String()), nil
	},
})

// CidrNetmaskFunc converts an IPv4 prefix into the equivalent dotted
// netmask.
var CidrNetmaskFunc = function.New(&function.Spec{
	Description: "Converts an IPv4 address prefix given in CIDR notation into a subnet mask address.",
	Params: []function.Parameter{
		{Name: "prefix", Type: cty.String},
	},
	Type: function.StaticReturnType(cty.String),
	RefineResult: func(b *cty.RefinementBuilder) *cty.RefinementBuilder {
		return b.NotNull()
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		network, err := parseCIDR(args[0].AsString())
		if err != nil {
			return cty.UnknownVal(cty.String), fmt.Errorf("invalid CIDR expression: %s", err)
		}
		if network.IP.To4() == nil {
			return cty.UnknownVal(cty.String), fmt.Errorf("IPv6 addresses cannot have a netmask: %s", args[0].AsString())
		}
		return cty.StringVal(net.IP(network.Mask).String()), nil
	},
})

// CidrSubnetFunc calculates a numbered subnet address within a network
// prefix, extending the prefix length by newbits.
var CidrSubnetFunc = function.New(&function.Spec{
	Description: "Calculates a subnet address within a given IP network address prefix.",
	Params: []function.Parameter{
		{Name: "prefix", Type: cty.String},
		{Name: "newbits", Type: cty.Number},
		{Name: "netnum", Type: cty.Number},
	},
	Type: function.StaticReturnType(cty.String),
	RefineResult: func(b *cty.RefinementBuilder) *cty.RefinementBuilder {
		return b.NotNull()
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		var newBits int
		if err := gocty.FromCtyValue(args[1], &newBits); err != nil {
			return cty.UnknownVal(cty.String), err
		}
		var netNum *big.Int
		if err := gocty.FromCtyValue(args[2], &netNum); err != nil {
			return cty.UnknownVal(cty.String), err
		}
		network, err := parseCIDR(args[0].AsString())
		if err != nil {
			return cty.UnknownVal(cty.String), fmt.Errorf("invalid CIDR expression: %s", err)
		}
		subnet, err := cidr.SubnetBig(network, newBits, netNum)
		if err != nil {
			return cty.UnknownVal(cty.String), err
		}
		return cty.StringVal(subnet.String()), nil
	},
})

// CidrSubnetsFunc allocates consecutive subnets of the given sizes (each
// expressed as a number of bits to add to the prefix length) within a
// network prefix, aligning each one to its own size.
var CidrSubnetsFunc = function.New(&function.Spec{
	Description: "Calculates a sequence of consecutive IP address ranges within a particular CIDR prefix.",
	Params: []function.Parameter{
		{Name: "prefix", Type: cty.String},
	},
	VarParam: &function.Parameter{
		Name: "newbits",
		Type: cty.Number,
	},
	Type: function.StaticReturnType(cty.List(cty.String)),
	RefineResult: func(b *cty.RefinementBuilder) *cty.RefinementBuilder {
		return b.NotNull()
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		network, err := parseCIDR(args[0].AsString())
		if err != nil {
			return cty.UnknownVal(retType), function.NewArgErrorf(0, "invalid CIDR expression: %s", err)
		}
		startLen, _ := network.Mask.Size()
		maxLen := addressBits(network)

		newBitsArgs := args[1:]
		if len(newBitsArgs) == 0 {
			return cty.ListValEmpty(cty.String), nil
		}

		var current *net.IPNet
		ret := make([]cty.Value, len(newBitsArgs))
		for i, arg := range newBitsArgs {
			argIdx := i + 1
			var bits int
			if err := gocty.FromCtyValue(arg, &bits); err != nil {
				return cty.UnknownVal(retType), function.NewArgError(argIdx, err)
			}
			if bits < 1 {
				return cty.UnknownVal(retType), function.NewArgErrorf(argIdx, "must extend prefix by at least one bit")
			}
			if bits > 32 {
				return cty.UnknownVal(retType), function.NewArgErrorf(argIdx, "may not extend prefix by more than 32 bits")
			}
			length := startLen + bits
			if length > maxLen {
				proto := "IPv4"
				if maxLen == 128 {
					proto = "IPv6"
				}
				return cty.UnknownVal(retType), function.NewArgErrorf(argIdx, "would extend prefix to %d bits, which is too long for an %s address", length, proto)
			}

			var next *net.IPNet
			if i == 0 {
				// The first subnet starts at the network's own address.
				// (Stepping forward from the subnet before it, as one might
				// expect, wraps around for networks at the start of the
				// address space such as 0.0.0.0/0.)
				next = &net.IPNet{IP: network.IP, Mask: net.CIDRMask(length, maxLen)}
			} else {
				var rollover bool
				next, rollover = cidr.NextSubnet(current, length)
				if rollover || !network.Contains(next.IP) {
					return cty.UnknownVal(retType), function.NewArgErrorf(argIdx, "not enough remaining address space for a subnet with a prefix of %d bits after %s", length, current.String())
				}
			}
			current = next
			ret[i] = cty.StringVal(current.String())
		}
		return cty.ListVal(ret), nil
	},
})
