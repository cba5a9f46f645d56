// Ops of the input parsers and older TF1 names that TensorFlow marks NotDifferentiable:
// SerializeTensor and ParseTensor (bytes), NonMaxSuppression (indices), StringSplit (strings) and
// DrawBoundingBoxes (painted pixels). The parsers TensorFlow registers nothing for (ParseExample*,
// ParseSequenceExample*, DecodeCSV, DecodeWav) need no entry.
#include "graph/gradients/grad_registry.h"

namespace rill {
namespace {

RILL_REGISTER_NO_GRADIENT("SerializeTensor");
RILL_REGISTER_NO_GRADIENT("ParseTensor");
RILL_REGISTER_NO_GRADIENT("NonMaxSuppression");
RILL_REGISTER_NO_GRADIENT("StringSplit");
RILL_REGISTER_NO_GRADIENT("DrawBoundingBoxes");

}  // namespace
}  // namespace rill
