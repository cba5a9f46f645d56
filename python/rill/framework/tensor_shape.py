"""TensorShape: a possibly partially known shape (None for unknown dimensions or rank)."""
from rill._proto import tensor_shape_pb2


class Dimension(object):
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = None if value is None or value < 0 else int(value)

    def __eq__(self, other):
        other = other.value if isinstance(other, Dimension) else other
        return self.value == other

    def __ne__(self, other):
        return not self.__eq__(other)

    def __int__(self):
        return self.value

    def __index__(self):
        return self.value

    def __repr__(self):
        return "Dimension(%r)" % (self.value,)

    def __str__(self):
        return "?" if self.value is None else str(self.value)


class TensorShape(object):
    def __init__(self, dims):
        if dims is None:
            self._dims = None
        elif isinstance(dims, TensorShape):
            self._dims = None if dims._dims is None else list(dims._dims)
        elif isinstance(dims, tensor_shape_pb2.TensorShapeProto):
            self._dims = None if dims.unknown_rank else [
                None if d.size < 0 else d.size for d in dims.dim]
        elif isinstance(dims, int):
            self._dims = [dims]
        else:
            self._dims = [None if d is None or (not isinstance(d, Dimension) and d < 0)
                          else (d.value if isinstance(d, Dimension) else int(d)) for d in dims]

    @property
    def ndims(self):
        return None if self._dims is None else len(self._dims)

    rank = ndims

    @property
    def dims(self):
        return None if self._dims is None else [Dimension(d) for d in self._dims]

    def as_list(self):
        if self._dims is None:
            raise ValueError("as_list() is not defined on an unknown TensorShape.")
        return list(self._dims)

    def is_fully_defined(self):
        return self._dims is not None and all(d is not None for d in self._dims)

    def num_elements(self):
        if not self.is_fully_defined():
            return None
        n = 1
        for d in self._dims:
            n *= d
        return n

    def as_proto(self):
        p = tensor_shape_pb2.TensorShapeProto()
        if self._dims is None:
            p.unknown_rank = True
        else:
            for d in self._dims:
                p.dim.add().size = -1 if d is None else d
        return p

    def merge_with(self, other):
        other = as_shape(other)
        if self._dims is None:
            return other
        if other._dims is None:
            return self
        if len(self._dims) != len(other._dims):
            raise ValueError("Shapes %s and %s are not compatible" % (self, other))
        out = []
        for a, b in zip(self._dims, other._dims):
            if a is not None and b is not None and a != b:
                raise ValueError("Shapes %s and %s are not compatible" % (self, other))
            out.append(a if a is not None else b)
        return TensorShape(out)

    def is_compatible_with(self, other):
        try:
            self.merge_with(other)
            return True
        except ValueError:
            return False

    def assert_is_compatible_with(self, other):
        self.merge_with(other)

    def __len__(self):
        if self._dims is None:
            raise ValueError("Cannot take the length of shape with unknown rank.")
        return len(self._dims)

    def __iter__(self):
        if self._dims is None:
            raise ValueError("Cannot iterate over a shape with unknown rank.")
        return iter(self._dims)

    def __getitem__(self, key):
        if self._dims is None:
            return None if not isinstance(key, slice) else TensorShape(None)
        if isinstance(key, slice):
            return TensorShape(self._dims[key])
        return self._dims[key]

    def __eq__(self, other):
        try:
            other = as_shape(other)
        except (TypeError, ValueError):
            return NotImplemented
        return self._dims == other._dims

    def __ne__(self, other):
        r = self.__eq__(other)
        return r if r is NotImplemented else not r

    def __repr__(self):
        return "TensorShape(%r)" % (self._dims,)

    def __str__(self):
        if self._dims is None:
            return "<unknown>"
        # TF1's format: "?" for an unknown dimension.
        if len(self._dims) == 1:
            return "(%s,)" % ("?" if self._dims[0] is None else self._dims[0])
        return "(%s)" % ", ".join("?" if d is None else str(d) for d in self._dims)


def as_shape(shape):
    return shape if isinstance(shape, TensorShape) else TensorShape(shape)


def unknown_shape():
    return TensorShape(None)
