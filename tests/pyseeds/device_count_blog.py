# The device_count blog: a session limited to 3 CPU and 2 GPU devices, a model's variables and
# ops on one named device, initialized, then assigned their initial weights.
import rill.compat.v1 as tf


class Data_Parall_AlexNet(object):
  def __init__(self, param_list):
    self.param_list = param_list

  def create(self):
    with tf.name_scope('conv1'):
      self.weights = tf.Variable(tf.zeros([3, 2]), name='weights')
      self.biases = tf.Variable(tf.zeros([2]), name='biases')
    self.x = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], name='x')
    self.y = tf.matmul(self.x, self.weights) + self.biases

  def load_initial_weights(self):
    return [self.weights.assign(self.param_list[0]), self.biases.assign(self.param_list[1])]


param_list = [[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], [0.5, -0.5]]
device_name = '/cpu:2'
config = tf.ConfigProto(device_count = {"CPU":3,"GPU":2}, log_device_placement=True)
with tf.Session(config = config) as sess:
  with tf.device(device_name):
    #1.create model
    model = Data_Parall_AlexNet(param_list)
    #2. define the model's structure
    model.create()
    #3. intialize all all parameters
    sess.run(tf.global_variables_initializer())
    #4. assign value to all params
    sess.run(model.load_initial_weights())
  print(sess.run(model.y))
