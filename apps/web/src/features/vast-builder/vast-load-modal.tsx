/**
 * "Load a VAST" (docs/decisions/038-vast-builder.md): paste a document, or have the server fetch
 * one from a URL (POST /v1/builders/vast/load, with its limits). Either way the text goes into the
 * code view as if typed: the builder reads it into the form (what it cannot hold is listed as
 * warnings) and the API checks the document as it is against the XSD of its version.
 */
import { CloudDownloadOutlined, ImportOutlined } from '@ant-design/icons';
import { vastMacros, type VastConfig } from '@backoffice/core/builders/vast';
import { Button, Form, Input, Modal, Tabs } from 'antd';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotice } from '../../components/use-notice.ts';
import { api, errorText, isSessionError } from '../../lib/api.ts';
import type { BuilderCommands } from '../../components/builders/types.ts';

interface LoadAnswer {
  code: string;
  url: string;
  content_type: string | null;
  bytes: number;
}

export function VastLoadButton({ commands }: { commands: BuilderCommands<VastConfig> }) {
  const { t } = useTranslation();
  const notice = useNotice();
  const uid = useId();
  const [open, setOpen] = useState(false);
  const [tab, setTab] = useState<'paste' | 'url'>('paste');
  const [pasted, setPasted] = useState('');
  const [pasteError, setPasteError] = useState<string | null>(null);
  const [url, setUrl] = useState('');
  const [urlError, setUrlError] = useState<string | null>(null);
  const [fetching, setFetching] = useState(false);

  const close = () => {
    setOpen(false);
    setPasteError(null);
    setUrlError(null);
  };
  const load = (code: string, note?: string) => {
    commands.setCode(code);
    close();
    const macros = vastMacros(code);
    void notice.success([note, t('vast.load.loaded'), macros.length > 0 ? t('vast.load.macros', { list: macros.map((m) => m.name).join(', ') }) : null].filter(Boolean).join(' '));
  };
  const loadPasted = () => {
    if (pasted.trim() === '') return setPasteError(t('vast.load.paste_required'));
    load(pasted);
    setPasted('');
  };
  const fetchUrl = async () => {
    if (url.trim() === '') return setUrlError(t('vast.rule.required'));
    setFetching(true);
    setUrlError(null);
    try {
      const answer = await api.request<LoadAnswer>('builders/vast/load', { method: 'POST', body: { url: url.trim() } });
      load(answer.code, t('vast.load.fetched', { bytes: answer.bytes, url: answer.url }));
    } catch (error) {
      if (!isSessionError(error)) setUrlError(errorText(error));
    } finally {
      setFetching(false);
    }
  };

  return (
    <>
      <Button icon={<ImportOutlined />} onClick={() => setOpen(true)} data-testid="vast-load-open">
        {t('vast.load.action')}
      </Button>
      <Modal
        open={open}
        title={t('vast.load.title')}
        onCancel={close}
        destroyOnHidden
        width={720}
        okText={tab === 'paste' ? t('vast.load.submit') : t('vast.load.fetch')}
        okButtonProps={{ icon: tab === 'paste' ? <ImportOutlined /> : <CloudDownloadOutlined />, loading: fetching, 'data-testid': 'vast-load-ok' }}
        onOk={() => (tab === 'paste' ? loadPasted() : void fetchUrl())}
        cancelText={t('common.cancel')}
        data-testid="vast-load-modal"
      >
        <Tabs
          activeKey={tab}
          onChange={(k) => setTab(k as 'paste' | 'url')}
          items={[
            {
              key: 'paste',
              label: t('vast.load.paste'),
              children: (
                <Form layout="vertical" component="div">
                  <Form.Item label={t('vast.load.paste_label')} htmlFor={`${uid}-paste`} validateStatus={pasteError ? 'error' : undefined} help={pasteError ?? undefined}>
                    <Input.TextArea
                      id={`${uid}-paste`}
                      value={pasted}
                      onChange={(e) => {
                        setPasted(e.target.value);
                        setPasteError(null);
                      }}
                      autoSize={{ minRows: 8, maxRows: 18 }}
                      spellCheck={false}
                      placeholder={t('vast.load.paste_placeholder')}
                      className="bo-vast-load__paste"
                      data-testid="vast-load-paste"
                    />
                  </Form.Item>
                </Form>
              ),
            },
            {
              key: 'url',
              label: t('vast.load.url'),
              children: (
                <Form layout="vertical" component="div">
                  <Form.Item label={t('vast.load.url_label')} htmlFor={`${uid}-url`} validateStatus={urlError ? 'error' : undefined} help={urlError ?? undefined} extra={t('vast.load.url_help')}>
                    <Input
                      id={`${uid}-url`}
                      value={url}
                      type="url"
                      inputMode="url"
                      autoComplete="off"
                      placeholder="https://"
                      onChange={(e) => {
                        setUrl(e.target.value);
                        setUrlError(null);
                      }}
                      onPressEnter={() => void fetchUrl()}
                      data-testid="vast-load-url"
                    />
                  </Form.Item>
                </Form>
              ),
            },
          ]}
        />
      </Modal>
    </>
  );
}
