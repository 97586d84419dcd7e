import { useDocumentTitle } from '../../lib/hooks';
import { PageHeader } from '../../components/layout/PageHeader';
import { FiringSection } from './FiringSection';
import { RulesSection } from './RulesSection';
import { ChannelsSection } from './ChannelsSection';

/** Alerts: what fires now and fired before, the rules, and where notifications go. */
export default function AlertsPage() {
  useDocumentTitle('Alerts');
  return (
    <>
      <PageHeader title="Alerts" description="Rules on your clusters' memory, throughput, latency, replication and health; who is told when they fire and resolve." />
      <FiringSection />
      <RulesSection />
      <ChannelsSection />
    </>
  );
}
