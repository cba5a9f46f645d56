// The step loop both training tests share: each recorded step's batch fed, the loss fetched and
// the train op run in one Session::Run, the loss compared with TensorFlow's.
#ifndef RILL_TESTS_TRAINING_TRAINING_STEPS_H_
#define RILL_TESTS_TRAINING_TRAINING_STEPS_H_

#include <string>

#include "google/protobuf/repeated_ptr_field.h"
#include "session/session.h"
#include "tests/training/training_case.pb.h"

namespace rill {

// Runs every step in `session`; a gtest failure per step whose loss is not within
// atol + rtol * |TensorFlow's|, or whose run fails (then it stops). Prints the largest relative
// difference under `name`.
void RunTrainingSteps(Session& session, const std::string& name,
                      const google::protobuf::RepeatedPtrField<TrainingStep>& steps,
                      const std::string& loss_fetch, const std::string& train_target, double rtol,
                      double atol);

}  // namespace rill

#endif  // RILL_TESTS_TRAINING_TRAINING_STEPS_H_
