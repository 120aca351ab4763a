package views

// init's output has two forms: the text it has always printed, and, with
// -json, Terraform's UI stream, where section headers and closing notes are
// "init_output" messages with a message_code and progress lines are "log"
// messages worded for machines. A View with a Stream set writes the
// second; init's code says both and the View picks.

// InitOutput writes one of init's notes: human is colorstring-marked text
// for the terminal, plain the message of the init_output message with the
// code Terraform gives it (such as "initializing_backend_message").
func (v *View) InitOutput(code, human, plain string) {
	if v.Stream != nil {
		v.Stream.InitOutput(code, plain)
		return
	}
	v.Output(human)
}

// InitLog writes one progress line: human as text, or plain as a "log"
// message of the stream.
func (v *View) InitLog(human, plain string) {
	if v.Stream != nil {
		v.Stream.Log(plain)
		return
	}
	v.Output(human)
}

// InitOutput writes an "init_output" message. Terraform stamps these with
// whole seconds, unlike its other messages.
func (j *JSON) InitOutput(code, message string) {
	j.emitAt("info", message, "init_output", map[string]any{"message_code": code}, "2006-01-02T15:04:05Z07:00")
}
