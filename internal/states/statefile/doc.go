// Package statefile reads and writes state snapshots in Terraform's JSON
// state format, version 4. Older format versions are upgraded to version 4
// by package upgrade before decoding.
//
// It imports states, addrs and upgrade.
package statefile
