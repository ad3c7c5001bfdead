package rule

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
)

// keys and values are expr's, listing a map in the order of its keys: in
// Go's map order (random on every call) `keys(args)[0] == "command"`
// would decide differently from one firing to the same next one, and a
// rule must decide the same way when replayed (why the clock is left
// out: guard.go).
func keys(params ...any) (any, error) {
	ks, _, err := sortedMap("keys", params[0])
	return ks, err
}

func values(params ...any) (any, error) {
	_, vs, err := sortedMap("values", params[0])
	return vs, err
}

// sortedMap is m's keys in byte order and its values in their keys'
// order. Every map a rule reaches is a map[string]any: the firing's and
// its examples' values, fromJSON's, and a rule's own literals, whose keys
// expr makes strings.
func sortedMap(what string, m any) (keys, vals []any, err error) {
	mm, ok := m.(map[string]any)
	if !ok {
		return nil, nil, fmt.Errorf("cannot get %s from %s", what, reflect.ValueOf(m).Kind())
	}
	ks := slices.Sorted(maps.Keys(mm))
	keys, vals = make([]any, len(ks)), make([]any, len(ks))
	for i, k := range ks {
		keys[i], vals[i] = k, mm[k]
	}
	return keys, vals, nil
}
