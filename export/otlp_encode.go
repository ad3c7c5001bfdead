package export

import (
	"encoding/binary"
	"encoding/json"
	"strconv"
	"time"
)

// The OTLP logs message numbers this package writes (opentelemetry-proto,
// opentelemetry/proto/logs/v1/logs.proto and common/v1/common.proto). An
// ExportLogsServiceRequest has the same field 1 as LogsData.
const (
	fResourceLogs   = 1 // LogsData / ExportLogsServiceRequest: repeated ResourceLogs
	fRLResource     = 1 // ResourceLogs.resource
	fRLScopeLogs    = 2 // ResourceLogs.scope_logs
	fResAttrs       = 1 // Resource.attributes
	fSLScope        = 1 // ScopeLogs.scope
	fSLLogRecords   = 2 // ScopeLogs.log_records
	fScopeName      = 1 // InstrumentationScope.name
	fScopeVersion   = 2 // InstrumentationScope.version
	fLRTime         = 1 // LogRecord.time_unix_nano (fixed64)
	fLRSeverityNum  = 2 // LogRecord.severity_number (enum)
	fLRSeverityText = 3 // LogRecord.severity_text
	fLRBody         = 5 // LogRecord.body (AnyValue)
	fLRAttrs        = 6 // LogRecord.attributes
	fLRObserved     = 11
	fLREventName    = 12 // LogRecord.event_name
	fKVKey          = 1
	fKVValue        = 2
	fAVString       = 1
	fAVBool         = 2
	fAVInt          = 3
	fAVArray        = 5
	fArrayValues    = 1
)

// Severity numbers (logs.proto SeverityNumber).
const (
	sevInfo = 9
	sevWarn = 13
)

// EventName is the OTLP event name of a decision record.
const EventName = "hermes_hooks.decision"

// resource is what every batch says of its sender.
type resource struct {
	service, version, host string
}

func (r resource) attrs() []attr {
	a := []attr{{key: "service.name", kind: 's', s: r.service}}
	if r.version != "" {
		a = append(a, attr{key: "service.version", kind: 's', s: r.version})
	}
	if r.host != "" {
		a = append(a, attr{key: "host.name", kind: 's', s: r.host})
	}
	return a
}

func severity(r *record) (int, string) {
	if r.blocked() {
		return sevWarn, "WARN"
	}
	return sevInfo, "INFO"
}

// --- protobuf (http/protobuf) ---

func appendTag(b []byte, field int, wire byte) []byte {
	return binary.AppendUvarint(b, uint64(field)<<3|uint64(wire))
}

// appendBytes writes a length-delimited field.
func appendBytes(b []byte, field int, v []byte) []byte {
	b = appendTag(b, field, 2)
	b = binary.AppendUvarint(b, uint64(len(v)))
	return append(b, v...)
}

func appendString(b []byte, field int, s string) []byte {
	b = appendTag(b, field, 2)
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func appendVarint(b []byte, field int, v uint64) []byte {
	return binary.AppendUvarint(appendTag(b, field, 0), v)
}

func appendFixed64(b []byte, field int, v uint64) []byte {
	return binary.LittleEndian.AppendUint64(appendTag(b, field, 1), v)
}

func anyValuePB(a attr) []byte {
	var v []byte
	switch a.kind {
	case 's':
		v = appendString(v, fAVString, a.s)
	case 'b':
		n := uint64(0)
		if a.b {
			n = 1
		}
		v = appendVarint(v, fAVBool, n)
	case 'i':
		v = appendVarint(v, fAVInt, uint64(a.i))
	case 'l', 'B':
		// A list: each element as the scalar attribute it holds.
		var arr []byte
		for _, e := range listElems(a) {
			arr = appendBytes(arr, fArrayValues, anyValuePB(e))
		}
		v = appendBytes(v, fAVArray, arr)
	}
	return v
}

// listElems are a list attribute's elements as scalar attributes: a list
// of strings ('l') or of bools ('B').
func listElems(a attr) []attr {
	var out []attr
	for _, s := range a.l {
		out = append(out, attr{kind: 's', s: s})
	}
	for _, b := range a.bl {
		out = append(out, attr{kind: 'b', b: b})
	}
	return out
}

func keyValuePB(a attr) []byte {
	kv := appendString(nil, fKVKey, a.key)
	return appendBytes(kv, fKVValue, anyValuePB(a))
}

func unixNano(t time.Time) uint64 {
	if t.IsZero() {
		return 0
	}
	return uint64(t.UnixNano())
}

func logRecordPB(it *item, observed time.Time) []byte {
	r := &it.rec
	num, text := severity(r)
	var b []byte
	b = appendFixed64(b, fLRTime, unixNano(r.Time))
	b = appendVarint(b, fLRSeverityNum, uint64(num))
	b = appendString(b, fLRSeverityText, text)
	b = appendBytes(b, fLRBody, appendString(nil, fAVString, r.summary()))
	for _, a := range r.attributes() {
		b = appendBytes(b, fLRAttrs, keyValuePB(a))
	}
	b = appendFixed64(b, fLRObserved, unixNano(observed))
	return appendString(b, fLREventName, EventName)
}

// encodeProtobuf is the batch as an ExportLogsServiceRequest.
func encodeProtobuf(res resource, items []item, observed time.Time) []byte {
	var resB []byte
	for _, a := range res.attrs() {
		resB = appendBytes(resB, fResAttrs, keyValuePB(a))
	}
	scope := appendString(nil, fScopeName, "hermes-hooks")
	scope = appendString(scope, fScopeVersion, res.version)
	sl := appendBytes(nil, fSLScope, scope)
	for i := range items {
		sl = appendBytes(sl, fSLLogRecords, logRecordPB(&items[i], observed))
	}
	rl := appendBytes(nil, fRLResource, resB)
	rl = appendBytes(rl, fRLScopeLogs, sl)
	return appendBytes(nil, fResourceLogs, rl)
}

// --- JSON (http/json): the proto3 JSON mapping, as OTLP specifies it
// (lowerCamelCase names, 64-bit integers as strings, enums as numbers). ---

type jsonKV struct {
	Key   string    `json:"key"`
	Value jsonValue `json:"value"`
}

type jsonValue struct {
	String *string     `json:"stringValue,omitempty"`
	Bool   *bool       `json:"boolValue,omitempty"`
	Int    string      `json:"intValue,omitempty"`
	Array  *jsonValues `json:"arrayValue,omitempty"`
}

type jsonValues struct {
	Values []jsonValue `json:"values"`
}

func jsonAttr(a attr) jsonKV {
	kv := jsonKV{Key: a.key}
	switch a.kind {
	case 's':
		s := a.s
		kv.Value.String = &s
	case 'b':
		b := a.b
		kv.Value.Bool = &b
	case 'i':
		kv.Value.Int = strconv.FormatInt(a.i, 10)
	case 'l', 'B':
		elems := listElems(a)
		vs := make([]jsonValue, len(elems))
		for i, e := range elems {
			vs[i] = jsonAttr(e).Value
		}
		kv.Value.Array = &jsonValues{Values: vs}
	}
	return kv
}

func jsonAttrs(as []attr) []jsonKV {
	out := make([]jsonKV, len(as))
	for i, a := range as {
		out[i] = jsonAttr(a)
	}
	return out
}

type jsonLogRecord struct {
	TimeUnixNano         string    `json:"timeUnixNano"`
	ObservedTimeUnixNano string    `json:"observedTimeUnixNano"`
	SeverityNumber       int       `json:"severityNumber"`
	SeverityText         string    `json:"severityText"`
	Body                 jsonValue `json:"body"`
	Attributes           []jsonKV  `json:"attributes"`
	EventName            string    `json:"eventName"`
}

// encodeJSON is the batch as an ExportLogsServiceRequest in OTLP/JSON.
func encodeJSON(res resource, items []item, observed time.Time) []byte {
	recs := make([]jsonLogRecord, len(items))
	for i := range items {
		r := &items[i].rec
		num, text := severity(r)
		body := r.summary()
		recs[i] = jsonLogRecord{
			TimeUnixNano:         strconv.FormatUint(unixNano(r.Time), 10),
			ObservedTimeUnixNano: strconv.FormatUint(unixNano(observed), 10),
			SeverityNumber:       num, SeverityText: text,
			Body:       jsonValue{String: &body},
			Attributes: jsonAttrs(r.attributes()),
			EventName:  EventName,
		}
	}
	req := map[string]any{"resourceLogs": []any{map[string]any{
		"resource": map[string]any{"attributes": jsonAttrs(res.attrs())},
		"scopeLogs": []any{map[string]any{
			"scope":      map[string]any{"name": "hermes-hooks", "version": res.version},
			"logRecords": recs,
		}},
	}}}
	out, err := json.Marshal(req)
	if err != nil { // cannot happen: strings, numbers and bools only
		panic(err)
	}
	return out
}
