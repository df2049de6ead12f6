// adlang run --partitions N under `mpirun -n N`: MPI process r runs partition r of the
// partitioned tagged graph (thesis Sec. 5.4; docs/graph-partition.md), exchanging its messages
// with the other ranks, and rank 0 gathers the outputs of main. The only part of the
// partitioned run that calls MPI, so that the lean adlang (docs/performance.md, "Start-up")
// links without it.
#include "semantics/graph/partition_on_rank.hpp"

#include <mpi.h>

#include <chrono>
#include <cstring>
#include <deque>
#include <iostream>
#include <sstream>
#include <thread>

#include "lang/diagnostics.hpp"
#include "support/exit_codes.hpp"

namespace adlang {
namespace {

using Clock = std::chrono::steady_clock;

// MPI message tags of the protocol.
enum Tag : int {
  kData = 1,    // a Message (encoded)
  kProbe = 2,   // rank 0 -> all: a termination wave (its number)
  kReply = 3,   // all -> rank 0: wave number, idle, messages sent and received
  kDone = 4,    // rank 0 -> all: every partition is idle and nothing is in flight
  kResult = 5,  // all -> rank 0: main's outputs held there, statistics, what is left
  kBeat = 6,    // rank 0 -> all: rank 0 is alive (every quarter of the progress timeout)
};

template <class T>
void put(std::string& s, T v) {
  s.append(reinterpret_cast<const char*>(&v), sizeof v);
}

template <class T>
T get(const std::string& s, std::size_t& at) {
  internal_check(s.size() - at >= sizeof(T), "a truncated protocol message");
  T v;
  std::memcpy(&v, s.data() + at, sizeof v);
  at += sizeof v;
  return v;
}

// One MPI process running partition `rank`: the work loop, the termination waves (Mattern's
// four-counter method: rank 0 asks every rank for its counts of messages sent and received
// when idle; two consecutive waves with the same totals, all idle, and as many received as
// sent mean nothing is left anywhere), and the progress timeout.
class RankLoop {
 public:
  RankLoop(const graph::Partitioned& p, int rank, int size, graph::PartitionRunner& runner,
           double timeout)
      : p_(p), rank_(rank), size_(size), runner_(runner), timeout_(timeout) {
    messages_.assign(size, 0);
    bytes_.assign(size, 0);
    dead_.assign(size, 0);
  }

  // Runs until rank 0 has detected termination. On rank 0, `results` receives every rank's
  // outputs of main and `stats` every rank's counts.
  void run(std::vector<std::pair<std::uint32_t, graph::Message>>& results,
           graph::PartitionedStats& stats) {
    Clock::time_point heard = Clock::now();  // the last message from rank 0
    Clock::time_point wave_end = Clock::now();
    Clock::time_point beat = Clock::now();
    int idle_rounds = 0;
    Clock::time_point idle_since = Clock::now();
    while (!done_) {
      std::vector<graph::Message> out;
      bool more = runner_.run(out, graph::kFiringsPerBatch);
      send_data(out);
      bool received = poll(heard);
      complete_sends();
      if (rank_ == 0) {
        // A heartbeat, also while a wave waits for a busy rank.
        if (seconds_since(beat) > timeout_ / 4) {
          for (int k = 1; k < size_; ++k)
            send(k, kBeat, std::string());
          beat = Clock::now();
        }
        if (!wave_active_ &&
            Clock::now() - wave_end > std::chrono::microseconds(idle_rounds > 10 ? 2000 : 200))
          start_wave();
        if (wave_active_ && replies_ == size_ - 1) {
          finish_wave(!more && runner_idle());
          wave_end = Clock::now();
        }
        if (wave_active_ && seconds_since(wave_start_) > timeout_) {
          std::string missing;
          for (int k = 1; k < size_; ++k)
            if (!replied_[k]) missing += (missing.empty() ? "" : ", ") + std::to_string(k);
          fail("partition " + missing + " has not answered for " + seconds(timeout_) +
               " s (its process may have died; --progress-timeout sets the limit)");
        }
      } else if (seconds_since(heard) > timeout_) {
        fail("partition 0 has not been heard from for " + seconds(timeout_) +
             " s (its process may have died; --progress-timeout sets the limit)");
      }
      // Idle: give the core to another rank of this machine (mpirun --oversubscribe), and
      // sleep only after 2 ms without work (a message costs a few microseconds: sleeping
      // sooner puts the sleep on the critical path of every exchange).
      if (more || received || !out.empty()) {
        idle_rounds = 0;
        idle_since = Clock::now();
      } else {
        ++idle_rounds;
        if (Clock::now() - idle_since > std::chrono::milliseconds(2))
          std::this_thread::sleep_for(std::chrono::microseconds(100));
        else
          std::this_thread::yield();
      }
    }
    while (!pending_.empty())
      complete_sends(true);
    gather(results, stats);
  }

 private:
  const graph::Partitioned& p_;
  const int rank_, size_;
  graph::PartitionRunner& runner_;
  const double timeout_;
  std::deque<std::pair<MPI_Request, std::string>> pending_;
  std::uint64_t sent_ = 0, received_ = 0;
  std::vector<std::uint64_t> messages_, bytes_, dead_;
  bool done_ = false;
  // Rank 0: the current wave and the previous one.
  bool wave_active_ = false;
  std::uint64_t wave_ = 0;
  int replies_ = 0;
  std::vector<std::uint8_t> replied_;
  bool wave_idle_ = true;
  std::uint64_t wave_sent_ = 0, wave_received_ = 0;
  bool previous_valid_ = false;
  std::uint64_t previous_sent_ = 0, previous_received_ = 0;
  Clock::time_point wave_start_;

  static double seconds_since(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
  }
  static std::string seconds(double s) {
    std::ostringstream o;
    o << s;
    return o.str();
  }

  bool runner_idle() const { return runner_.idle(); }

  [[noreturn]] void fail(const std::string& what) {
    std::cerr << "adlang: error: " << what << "\n" << std::flush;
    MPI_Abort(MPI_COMM_WORLD, kExitDistributed);
    std::exit(kExitDistributed);
  }

  void send(int to, int tag, std::string bytes) {
    pending_.emplace_back(MPI_REQUEST_NULL, std::move(bytes));
    auto& [req, buf] = pending_.back();
    MPI_Isend(buf.data(), static_cast<int>(buf.size()), MPI_BYTE, to, tag, MPI_COMM_WORLD, &req);
  }

  // The messages of one batch of firings, one MPI message per destination: each Message as
  // (u32 length, its encoding). The statistics count Messages; the termination counters
  // count MPI messages (what can be in flight).
  void send_data(const std::vector<graph::Message>& out) {
    if (out.empty()) return;  // the idle loop passes here every round
    std::vector<std::string> batch(size_);
    for (const graph::Message& m : out) {
      const graph::Channel& c = p_.channels[m.channel];
      std::string wire = graph::encode(m);
      ++messages_[c.to];
      bytes_[c.to] += wire.size();
      if (m.state == graph::kMessageDead) ++dead_[c.to];
      put<std::uint32_t>(batch[c.to], static_cast<std::uint32_t>(wire.size()));
      batch[c.to] += wire;
    }
    for (int to = 0; to < size_; ++to)
      if (!batch[to].empty()) {
        ++sent_;
        send(to, kData, std::move(batch[to]));
      }
  }

  void deliver_batch(const std::string& buf) {
    for (std::size_t at = 0; at < buf.size();) {
      std::uint32_t len = get<std::uint32_t>(buf, at);
      internal_check(buf.size() - at >= len, "a truncated data message");
      runner_.deliver(graph::decode(std::string_view(buf).substr(at, len)));
      at += len;
    }
  }

  void complete_sends(bool wait = false) {
    while (!pending_.empty()) {
      int flag = 0;
      if (wait) {
        MPI_Wait(&pending_.front().first, MPI_STATUS_IGNORE);
        flag = 1;
      } else {
        MPI_Test(&pending_.front().first, &flag, MPI_STATUS_IGNORE);
      }
      if (!flag) return;
      pending_.pop_front();
    }
  }

  std::string receive(const MPI_Status& st) {
    int n = 0;
    MPI_Get_count(&st, MPI_BYTE, &n);
    std::string buf(static_cast<std::size_t>(n), '\0');
    MPI_Recv(buf.data(), n, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return buf;
  }

  // Handles what has arrived; returns whether anything did.
  bool poll(Clock::time_point& heard) {
    bool any = false;
    for (;;) {
      int flag = 0;
      MPI_Status st;
      MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
      if (!flag) return any;
      any = true;
      if (st.MPI_SOURCE == 0) heard = Clock::now();
      if (st.MPI_TAG == kResult) return any;  // gathered after termination
      std::string buf = receive(st);
      switch (st.MPI_TAG) {
        case kData:
          ++received_;
          deliver_batch(buf);
          break;
        case kProbe: {
          std::size_t at = 0;
          std::uint64_t wave = get<std::uint64_t>(buf, at);
          std::string reply;
          put(reply, wave);
          put<std::uint8_t>(reply, runner_idle() ? 1 : 0);
          put(reply, sent_);
          put(reply, received_);
          send(0, kReply, std::move(reply));
          break;
        }
        case kReply: {
          std::size_t at = 0;
          std::uint64_t wave = get<std::uint64_t>(buf, at);
          if (wave != wave_ || !wave_active_) break;  // an answer to an abandoned wave
          bool idle = get<std::uint8_t>(buf, at) != 0;
          wave_sent_ += get<std::uint64_t>(buf, at);
          wave_received_ += get<std::uint64_t>(buf, at);
          wave_idle_ = wave_idle_ && idle;
          if (!replied_[st.MPI_SOURCE]) ++replies_;
          replied_[st.MPI_SOURCE] = 1;
          break;
        }
        case kBeat:
          break;
        case kDone:
          done_ = true;
          return any;
        default:
          internal_check(false, "an unknown protocol message");
      }
    }
  }

  void start_wave() {
    ++wave_;
    wave_active_ = true;
    replies_ = 0;
    replied_.assign(size_, 0);
    wave_idle_ = true;
    wave_sent_ = wave_received_ = 0;
    wave_start_ = Clock::now();
    std::string probe;
    put(probe, wave_);
    for (int k = 1; k < size_; ++k)
      send(k, kProbe, probe);
  }

  void finish_wave(bool idle0) {
    wave_active_ = false;
    const std::uint64_t s = wave_sent_ + sent_, r = wave_received_ + received_;
    const bool valid = wave_idle_ && idle0;
    if (valid && previous_valid_ && s == previous_sent_ && r == previous_received_ && s == r) {
      for (int k = 1; k < size_; ++k)
        send(k, kDone, std::string());
      done_ = true;
      return;
    }
    previous_valid_ = valid;
    previous_sent_ = s;
    previous_received_ = r;
  }

  // Every rank's outputs of main and counts, to rank 0.
  void gather(std::vector<std::pair<std::uint32_t, graph::Message>>& results,
              graph::PartitionedStats& stats) {
    std::string left;  // rank 0: what the partitions have left waiting
    auto pack = [&]() {
      std::string s;
      auto rs = runner_.results();
      put<std::uint32_t>(s, static_cast<std::uint32_t>(rs.size()));
      for (const auto& [index, m] : rs) {
        std::string wire = graph::encode(m);
        put<std::uint32_t>(s, index);
        put<std::uint64_t>(s, wire.size());
        s += wire;
      }
      graph::GraphStats g = runner_.stats();
      for (std::uint64_t v :
           {g.frames_created, g.peak_live_frames, g.tokens, g.dead_tokens, g.calls})
        put(s, v);
      for (int k = 0; k < size_; ++k) {
        put(s, messages_[k]);
        put(s, bytes_[k]);
        put(s, dead_[k]);
      }
      // What is left waiting here: nothing, unless the run deadlocked.
      std::string left = runner_.quiescent() ? std::string() : runner_.waiting_summary();
      put<std::uint64_t>(s, left.size());
      s += left;
      return s;
    };
    if (rank_ != 0) {
      std::string s = pack();
      MPI_Send(s.data(), static_cast<int>(s.size()), MPI_BYTE, 0, kResult, MPI_COMM_WORLD);
      return;
    }
    stats.per_rank.assign(size_, {});
    stats.messages.assign(size_, std::vector<std::uint64_t>(size_, 0));
    stats.bytes = stats.dead_messages = stats.messages;
    auto unpack = [&](int from, const std::string& s) {
      std::size_t at = 0;
      std::uint32_t n = get<std::uint32_t>(s, at);
      for (std::uint32_t i = 0; i < n; ++i) {
        std::uint32_t index = get<std::uint32_t>(s, at);
        std::uint64_t len = get<std::uint64_t>(s, at);
        internal_check(s.size() - at >= len, "a truncated result");
        results.emplace_back(index, graph::decode(std::string_view(s).substr(at, len)));
        at += len;
      }
      graph::GraphStats& g = stats.per_rank[from];
      for (std::uint64_t* v :
           {&g.frames_created, &g.peak_live_frames, &g.tokens, &g.dead_tokens, &g.calls})
        *v = get<std::uint64_t>(s, at);
      for (int k = 0; k < size_; ++k) {
        stats.messages[from][k] = get<std::uint64_t>(s, at);
        stats.bytes[from][k] = get<std::uint64_t>(s, at);
        stats.dead_messages[from][k] = get<std::uint64_t>(s, at);
      }
      std::uint64_t n_left = get<std::uint64_t>(s, at);
      internal_check(s.size() - at == n_left, "a truncated result");
      if (n_left) left += "; " + s.substr(at);
    };
    unpack(0, pack());
    for (int got = 1; got < size_;) {
      MPI_Status st;
      int flag = 0;
      MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
      if (!flag) {
        std::this_thread::sleep_for(std::chrono::microseconds(100));
        continue;
      }
      std::string buf = receive(st);
      if (st.MPI_TAG != kResult) continue;  // a late reply to a wave
      unpack(st.MPI_SOURCE, buf);
      ++got;
    }
    if (!left.empty())
      throw InternalError("internal error: the partitioned graph deadlocked" + left);
  }
};

}  // namespace

std::vector<std::pair<std::uint32_t, graph::Message>> run_partition_on_rank(
    const graph::Partitioned& p, const std::vector<Value<double>>& inputs,
    const graph::PartitionedOptions& options, NameSupply& names, int rank, int size,
    double progress_timeout, graph::PartitionedStats& stats) {
  std::vector<std::pair<std::uint32_t, graph::Message>> results;
  try {
    graph::PartitionRunner runner(p, static_cast<std::uint32_t>(rank), options, names);
    runner.start(inputs);
    RankLoop(p, rank, size, runner, progress_timeout).run(results, stats);
    // No rank starts another run (and sends its messages) while one is still in this one.
    MPI_Barrier(MPI_COMM_WORLD);
  } catch (const std::exception& x) {
    // The others would wait for this rank: end the job.
    std::cerr << "adlang: partition " << rank << ": " << x.what() << "\n" << std::flush;
    MPI_Abort(MPI_COMM_WORLD, kExitInternalError);
  }
  return results;
}

}  // namespace adlang
