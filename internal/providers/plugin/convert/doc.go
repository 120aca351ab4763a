// Package convert translates between the provider plugin protocol's
// messages (packages tfplugin5 and tfplugin6) and strata's own types:
// schemas to configschema, cty values to and from the encodings of
// DynamicValue (msgpack with unknowns, or JSON), attribute paths to
// cty.Path, and protocol diagnostics to providers.Diagnostics. Only the
// directions the plugin client uses exist; the round-trip tests build
// schema messages with toproto_test.go.
//
// It is a leaf adapter of internal/providers/plugin: it imports only
// providers, configs/configschema, ctyjson and the generated protocol packages, and
// nothing in strata but the plugin client should import it.
package convert
