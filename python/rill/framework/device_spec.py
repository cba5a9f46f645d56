"""Device strings as TensorFlow's DeviceSpec parses, merges and prints them."""


class DeviceSpec(object):
    __slots__ = ("job", "replica", "task", "device_type", "device_index")

    def __init__(self, job=None, replica=None, task=None, device_type=None, device_index=None):
        self.job = job
        self.replica = replica
        self.task = task
        self.device_type = device_type
        self.device_index = device_index

    @classmethod
    def from_string(cls, spec):
        s = cls()
        if not spec:
            return s
        for part in spec.split("/"):
            if not part:
                continue
            y = part.split(":")
            ly = len(y)
            key = y[0].lower()
            if ly == 2 and key == "job":
                s.job = y[1]
            elif ly == 2 and key == "replica":
                s.replica = int(y[1])
            elif ly == 2 and key == "task":
                s.task = int(y[1])
            elif (ly == 1 or ly == 2) and key in ("cpu", "gpu"):
                s.device_type = y[0].upper()
                if ly == 2 and y[1] != "*":
                    s.device_index = int(y[1])
            elif ly == 3 and key == "device":
                s.device_type = y[1]
                if y[2] != "*":
                    s.device_index = int(y[2])
            elif ly == 2 and key == "device":
                s.device_type = y[1]
            else:
                raise ValueError("Unknown attribute: '%s' in '%s'" % (part, spec))
        return s

    def merge_from(self, other):
        """Fields other sets win."""
        for f in self.__slots__:
            v = getattr(other, f)
            if v is not None:
                setattr(self, f, v)

    def to_string(self):
        out = ""
        if self.job is not None:
            out += "/job:" + self.job
        if self.replica is not None:
            out += "/replica:" + str(self.replica)
        if self.task is not None:
            out += "/task:" + str(self.task)
        if self.device_type is not None:
            out += "/device:%s:%s" % (self.device_type,
                                       "*" if self.device_index is None else self.device_index)
        return out


def merge_device(outer, inner):
    """The device string for inner's fields over outer's (TensorFlow's nested tf.device)."""
    spec = DeviceSpec.from_string(outer)
    spec.merge_from(DeviceSpec.from_string(inner))
    return spec.to_string()


def canonical_name(device):
    return DeviceSpec.from_string(device).to_string() if device else ""
