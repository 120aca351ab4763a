package funcs

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestNetworkFunctions(t *testing.T) {
	fns := Functions(testBaseDir, false)
	runExprTests(t, fns, map[string]exprTest{
		// cidrsubnet
		"cidrsubnet":                {Expr: `cidrsubnet("10.0.0.0/16", 8, 2)`, Want: cty.StringVal("10.0.2.0/24")},
		"cidrsubnet small":          {Expr: `cidrsubnet("10.1.2.0/24", 4, 15)`, Want: cty.StringVal("10.1.2.240/28")},
		"cidrsubnet ipv6":           {Expr: `cidrsubnet("fd00:fd12:3456:7890::/56", 16, 162)`, Want: cty.StringVal("fd00:fd12:3456:7800:a200::/72")},
		"cidrsubnet zero bits":      {Expr: `cidrsubnet("10.0.0.0/8", 0, 0)`, Want: cty.StringVal("10.0.0.0/8")},
		"cidrsubnet leading zeros":  {Expr: `cidrsubnet("010.0.0.0/16", 8, 2)`, Want: cty.StringVal("10.0.2.0/24")},
		"cidrsubnet too many bits":  {Expr: `cidrsubnet("10.0.0.0/16", 20, 2)`, WantErr: `insufficient address space to extend prefix of 16 by 20`},
		"cidrsubnet netnum too big": {Expr: `cidrsubnet("10.0.0.0/16", 8, 256)`, WantErr: `prefix extension of 8 does not accommodate a subnet numbered 256`},
		"cidrsubnet negative":       {Expr: `cidrsubnet("10.0.0.0/16", 8, -1)`, Want: cty.StringVal("0.0.1.0/24")}, // go-cidr 1.1.0, as in Terraform 1.11
		"cidrhost too negative":     {Expr: `cidrhost("10.0.0.0/30", -5)`, WantErr: `prefix of 30 does not accommodate a host numbered -1`},
		"cidrsubnet bad prefix":     {Expr: `cidrsubnet("bad", 8, 2)`, WantErr: `invalid CIDR expression: invalid CIDR address: bad`},
		"cidrsubnet fraction":       {Expr: `cidrsubnet("10.0.0.0/8", 1.5, 0)`, WantErr: `value must be a whole number`},

		// cidrhost
		"cidrhost":              {Expr: `cidrhost("10.12.112.0/20", 16)`, Want: cty.StringVal("10.12.112.16")},
		"cidrhost next octet":   {Expr: `cidrhost("10.12.112.0/20", 268)`, Want: cty.StringVal("10.12.113.12")},
		"cidrhost ipv6":         {Expr: `cidrhost("fd00:fd12:3456:7890:00a2::/72", 34)`, Want: cty.StringVal("fd00:fd12:3456:7890::22")},
		"cidrhost negative":     {Expr: `cidrhost("10.0.0.0/30", -1)`, Want: cty.StringVal("10.0.0.3")},
		"cidrhost ipv6 last":    {Expr: `cidrhost("::/0", -1)`, Want: cty.StringVal("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff")},
		"cidrhost host bits":    {Expr: `cidrhost("10.0.0.1/8", 0)`, Want: cty.StringVal("10.0.0.0")},
		"cidrhost out of range": {Expr: `cidrhost("10.0.0.0/30", 5)`, WantErr: `prefix of 30 does not accommodate a host numbered 5`},
		"cidrhost too big":      {Expr: `cidrhost("192.168.1.0/24", 300)`, WantErr: `prefix of 24 does not accommodate a host numbered 300`},
		"cidrhost not number":   {Expr: `cidrhost("10.0.0.0/8", "x")`, WantErr: `a number is required`},

		// cidrnetmask
		"cidrnetmask":      {Expr: `cidrnetmask("172.16.0.0/12")`, Want: cty.StringVal("255.240.0.0")},
		"cidrnetmask /8":   {Expr: `cidrnetmask("10.0.0.0/8")`, Want: cty.StringVal("255.0.0.0")},
		"cidrnetmask /32":  {Expr: `cidrnetmask("10.0.0.0/32")`, Want: cty.StringVal("255.255.255.255")},
		"cidrnetmask ipv6": {Expr: `cidrnetmask("fd00::/64")`, WantErr: `IPv6 addresses cannot have a netmask: fd00::/64`},

		// cidrsubnets
		"cidrsubnets": {Expr: `cidrsubnets("10.1.0.0/16", 4, 4, 8, 4)`, Want: strList("10.1.0.0/20", "10.1.16.0/20", "10.1.32.0/24", "10.1.48.0/20")},
		"cidrsubnets ipv6": {Expr: `cidrsubnets("fd00:fd12:3456:7890::/56", 16, 16, 16, 32)`, Want: strList(
			"fd00:fd12:3456:7800::/72",
			"fd00:fd12:3456:7800:100::/72",
			"fd00:fd12:3456:7800:200::/72",
			"fd00:fd12:3456:7800:300::/88",
		)},
		"cidrsubnets grow":        {Expr: `cidrsubnets("10.0.0.0/16", 8, 4)`, Want: strList("10.0.0.0/24", "10.0.16.0/20")},
		"cidrsubnets none":        {Expr: `cidrsubnets("10.0.0.0/8")`, Want: cty.ListValEmpty(cty.String)},
		"cidrsubnets whole v4":    {Expr: `cidrsubnets("0.0.0.0/0", 4, 4)`, Want: strList("0.0.0.0/4", "16.0.0.0/4")},
		"cidrsubnets whole v6":    {Expr: `cidrsubnets("::/0", 4)`, Want: strList("::/4")},
		"cidrsubnets exhausted":   {Expr: `cidrsubnets("10.0.0.0/30", 1, 1, 1)`, WantErr: `not enough remaining address space for a subnet with a prefix of 31 bits after 10.0.0.2/31`},
		"cidrsubnets zero":        {Expr: `cidrsubnets("10.0.0.0/16", 0)`, WantErr: `must extend prefix by at least one bit`},
		"cidrsubnets too long":    {Expr: `cidrsubnets("10.0.0.0/16", 17)`, WantErr: `would extend prefix to 33 bits, which is too long for an IPv4 address`},
		"cidrsubnets v6 too far":  {Expr: `cidrsubnets("fd00::/56", 73)`, WantErr: `may not extend prefix by more than 32 bits`},
		"cidrsubnets v6 too long": {Expr: `cidrsubnets("fd00::/120", 9)`, WantErr: `would extend prefix to 129 bits, which is too long for an IPv6 address`},
		"cidrsubnets fraction":    {Expr: `cidrsubnets("10.0.0.0/8", 1.5)`, WantErr: `value must be a whole number`},
		"cidrsubnets bad prefix":  {Expr: `cidrsubnets("nope", 1)`, WantErr: `invalid CIDR expression`},
	})
}
