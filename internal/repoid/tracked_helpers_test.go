package repoid

import (
	"bufio"
	"io"
)

type bufioReader = bufio.Reader

func bufioNew(r io.Reader) *bufio.Reader { return bufio.NewReader(r) }
