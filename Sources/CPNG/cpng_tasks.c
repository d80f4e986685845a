#include "cpng_internal.h"
#include <stdatomic.h>
#include <unistd.h>

/* Helper threads running in the whole process. Renders in parallel (a batch) each encode; together they
   start no more helpers than the machine has cores beside them. Which thread deflates which piece never
   changes the bytes. */
static atomic_int running_helpers;

void task_queue_init(task_queue *queue, uint32_t count) {
  queue->next = 0;
  queue->count = count;
  queue->failed = 0;
  pthread_mutex_init(&queue->lock, NULL);
}

void task_queue_destroy(task_queue *queue) { pthread_mutex_destroy(&queue->lock); }

int64_t take_task(task_queue *queue) {
  pthread_mutex_lock(&queue->lock);
  const int64_t task = queue->failed || queue->next >= queue->count ? -1 : (int64_t)queue->next++;
  pthread_mutex_unlock(&queue->lock);
  return task;
}

void fail_tasks(task_queue *queue) {
  pthread_mutex_lock(&queue->lock);
  queue->failed = 1;
  pthread_mutex_unlock(&queue->lock);
}

void run_on_cores(void *(*worker)(void *), void *job, uint32_t tasks) {
  enum { MAXIMUM_THREADS = 16 };
  const long cores = sysconf(_SC_NPROCESSORS_ONLN);
  uint32_t threads = cores < 1 ? 1 : cores > MAXIMUM_THREADS ? MAXIMUM_THREADS : (uint32_t)cores;
  if (threads > tasks) threads = tasks > 0 ? tasks : 1;
  pthread_t helpers[MAXIMUM_THREADS];
  uint32_t started = 0;
  for (; started + 1 < threads; started++) {
    /* A helper only while the process's helpers leave a core for each thread that called in. */
    if (atomic_fetch_add(&running_helpers, 1) + 1 > (int)threads - 1) {
      atomic_fetch_sub(&running_helpers, 1);
      break;
    }
    if (pthread_create(&helpers[started], NULL, worker, job) != 0) {
      atomic_fetch_sub(&running_helpers, 1);
      break;
    }
  }
  worker(job);
  for (uint32_t index = 0; index < started; index++) pthread_join(helpers[index], NULL);
  atomic_fetch_sub(&running_helpers, (int)started);
}
