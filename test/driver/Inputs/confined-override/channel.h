#pragma once
#include <mpi.h>

// A library's transport interface; its own implementation is TcpChannel.
class Channel {
public:
  virtual ~Channel() = default;
  virtual void Barrier() = 0;
};

class TcpChannel : public Channel {
public:
  void Barrier() override;
};

void Publish(Channel &Ch, int Rank);
extern Channel *DefaultChannel;
