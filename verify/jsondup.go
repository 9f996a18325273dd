package verify

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// duplicateKey returns the location and name of the first key that an
// object of the JSON document data holds twice ("prefixes[3]",
// "ipv4Prefix"), or "" and "" when there is none; keys that differ only in
// case count as the same, as encoding/json matches them to one field. encoding/json keeps the
// last value of a repeated key without a word, so a list could show one
// prefix to a person reading it and give another to the audit. data must
// be valid JSON.
func duplicateKey(data []byte) (at, key string) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	type frame struct {
		path   string
		keys   map[string]bool // nil for an array
		index  int             // the next element of an array
		expect bool            // an object: the next string token is a key
	}
	var stack []*frame
	var pending string // the path of the value after a key
	for {
		tok, err := dec.Token()
		if err != nil {
			return "", ""
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		// A key of an object.
		if top != nil && top.keys != nil && top.expect {
			if d, ok := tok.(json.Delim); ok && d == '}' {
				stack = stack[:len(stack)-1]
				continue
			}
			k, _ := tok.(string)
			// encoding/json matches a key to a field regardless of case.
			fold := strings.ToLower(k)
			if top.keys[fold] {
				return top.path, k
			}
			top.keys[fold] = true
			top.expect = false
			pending = join(top.path, k)
			continue
		}
		// A value: its path.
		path := ""
		if top != nil {
			if top.keys != nil {
				path, top.expect = pending, true
			} else {
				path = top.path + "[" + strconv.Itoa(top.index) + "]"
				top.index++
			}
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{path: path, keys: map[string]bool{}, expect: true})
		case json.Delim('['):
			stack = append(stack, &frame{path: path})
		case json.Delim(']'):
			if top != nil {
				top.index-- // the ']' is no element
			}
			stack = stack[:len(stack)-1]
		}
	}
}

// join appends key to the path of an object.
func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// checkDuplicateKeys returns an error wrapping ErrSyntax for a document
// with a repeated key.
func checkDuplicateKeys(data []byte) error {
	at, key := duplicateKey(data)
	if key == "" {
		return nil
	}
	where := "the document"
	if at != "" {
		where = at
	}
	return fmt.Errorf("%w: %s holds the key %q twice (which one counts is ambiguous)", ErrSyntax, where, key)
}
