package plugin

import (
	"google.golang.org/grpc/encoding"
	"google.golang.org/protobuf/proto"

	pb "github.com/r35157/journal-lint/plugins/proto/rulepack/v1"
)

// requestCodec is gRPC's protobuf codec for one Check call, except that it
// marshals the CheckRequest into buf, a buffer that a worker of
// [Pack.run] keeps from call to call: a request is mostly the batch's
// documents, megabytes that a fresh buffer per call would take from new
// pages of memory each time. The bytes are those of proto.Marshal.
type requestCodec struct{ buf []byte }

// Name is the content-subtype of gRPC's protobuf codec.
func (c *requestCodec) Name() string { return "proto" }

// Marshal encodes v, a CheckRequest into buf.
func (c *requestCodec) Marshal(v any) ([]byte, error) {
	req, ok := v.(*pb.CheckRequest)
	if !ok {
		return encoding.GetCodec("proto").Marshal(v)
	}
	var err error
	c.buf, err = proto.MarshalOptions{}.MarshalAppend(c.buf[:0], req)
	return c.buf, err
}

// Unmarshal decodes as gRPC's protobuf codec does.
func (c *requestCodec) Unmarshal(data []byte, v any) error {
	return encoding.GetCodec("proto").Unmarshal(data, v)
}
